/**
 * Who is calling: the partner key from the `Authorization` header (the raw key, or
 * `Bearer <key>`), checked against the store (hashed, constant-time). Every failure is the same
 * 401 body, so a caller learns nothing about which keys exist.
 */
import { DpeSimError } from '../contract/errors.js';
import type { LocalServices } from '../backend/local-services.js';
import type { Partner } from '../backend/local-services.js';

export const INVALID_KEY_MESSAGE = 'invalid or missing partner key';

/** The key carried by an `Authorization` header value, or undefined when there is none. */
export function keyFromHeader(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const value = header.trim();
  const bearer = /^bearer\s+(.+)$/i.exec(value);
  const key = (bearer ? (bearer[1] as string) : value).trim();
  return key === '' || key.length > 512 ? undefined : key;
}

/** The calling partner, or a 401 DpeSimError. */
export async function partnerFromHeader(
  services: LocalServices,
  header: string | string[] | undefined,
): Promise<Partner> {
  const key = keyFromHeader(header);
  const partner = key === undefined ? undefined : await services.partnerForKey(key);
  if (!partner) throw new DpeSimError('auth', INVALID_KEY_MESSAGE);
  return partner;
}
