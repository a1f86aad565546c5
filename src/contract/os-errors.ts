/**
 * Operating-system failures in words: "permission denied" rather than EACCES. Every message
 * that names a file or directory the system refused says why with these.
 */
const REASONS: Record<string, string> = {
  ENOENT: 'it does not exist',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'a file is in the way',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EMFILE: 'too many open files',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EBUSY: 'it is busy',
  SQLITE_READONLY: 'it is read-only',
  SQLITE_CANTOPEN: 'it cannot be opened',
  SQLITE_NOTADB: 'it is not a dpe-sim store (not an SQLite file)',
  SQLITE_CORRUPT: 'it is damaged',
};

export function osCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Why the system refused, in words (the error's own message without its errno prefix when the
 * code is not a known one). */
export function osReason(err: unknown): string {
  const code = osCode(err);
  if (code && REASONS[code]) return REASONS[code];
  const message = err instanceof Error ? err.message : String(err);
  // "EACCES: permission denied, open '/x'" → "permission denied"
  const m = /^[A-Z_]+: ([^,]+)/.exec(message);
  return m?.[1] ?? message;
}
