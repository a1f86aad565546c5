/** Parsing and checking the values of command-line flags (exit 2 on a bad one). */
import { DpeSimError } from '../contract/errors.js';
import { ambiguousText, ambiguousTextMessage } from '../contract/text.js';
import {
  DPE_ID_PATTERN,
  DPE_ID_REGEX,
  EXPIRE_MAX_MINUTES,
  IDENTITY_MAX_LENGTH,
} from '../contract/constants.js';
import type { CoefMode, PartnerIdentity } from '../contract/schemas.js';

export function minutesOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || Number(value) > EXPIRE_MAX_MINUTES) {
    throw new DpeSimError(
      'invalid-input',
      `--expire must be an integer number of minutes from 1 to ${EXPIRE_MAX_MINUTES} (got '${value}')`,
    );
  }
  return Number(value);
}

export function coefOption(value: string | undefined): CoefMode {
  if (value === undefined || value === '2026') return 'activated';
  if (value === '2025') return 'deactivated';
  throw new DpeSimError('invalid-input', `--coef must be 2026 or 2025 (got '${value}')`);
}

export function dpeIdOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!DPE_ID_REGEX.test(value)) {
    throw new DpeSimError(
      'invalid-input',
      `--dpe-id '${value}' is not a DPE number: expected the pattern ${DPE_ID_PATTERN}`,
    );
  }
  return value;
}

/** Checks the identity the way the API does: customerId and userId without ':'. */
export function checkIdentity(id: PartnerIdentity): PartnerIdentity {
  for (const [field, v] of [
    ['customer-id', id.customerId],
    ['user-id', id.userId],
  ] as const) {
    if (v.includes(':'))
      throw new DpeSimError('invalid-input', `--${field} must not contain ':' (got '${v}')`);
    if (v.trim() === '') throw new DpeSimError('invalid-input', `--${field} must not be empty`);
  }
  for (const [field, v] of [
    ['customer-id', id.customerId],
    ['user-id', id.userId],
    ['user-name', id.userName],
    ['customer-name', id.customerName],
  ] as const) {
    if (v.trim() === '') throw new DpeSimError('invalid-input', `--${field} must not be empty`);
    if (v.length > IDENTITY_MAX_LENGTH)
      throw new DpeSimError(
        'invalid-input',
        `--${field} is too long: at most ${IDENTITY_MAX_LENGTH} characters`,
      );
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f-\u009f]/.test(v))
      throw new DpeSimError(
        'invalid-input',
        `--${field} must not contain control characters (NUL, CR, LF, tab...)`,
      );
    const ambiguous = ambiguousText(v);
    if (ambiguous)
      throw new DpeSimError('invalid-input', ambiguousTextMessage(`--${field}`, ambiguous), {
        field,
        ...ambiguous,
      });
  }
  return id;
}

/** `--port`: 0 (any free port) to 65535. */
export function portOption(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) > 65535) {
    throw new DpeSimError(
      'invalid-input',
      `--port must be an integer from 0 to 65535 (got '${value}')`,
    );
  }
  return Number(value);
}
