/**
 * The names of the settings, their environment variables and defaults: plain values that the
 * command definitions use without loading the configuration store (`conf`).
 */
export const SETTING_KEYS = [
  'backend',
  'baseUrl',
  'partnerKey',
  'appUrl',
  'dpeDir',
  'dataDir',
  'customerId',
  'userId',
  'userName',
  'customerName',
  'costs',
  'timeout',
  'retries',
  'historyPath',
  'registryUrl',
  'storeUrl',
  'queueUrl',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const ENV_VARS: Record<SettingKey, string> = {
  backend: 'DPE_SIM_BACKEND',
  baseUrl: 'DPE_SIM_BASE_URL',
  partnerKey: 'DPE_SIM_PARTNER_KEY',
  appUrl: 'DPE_SIM_APP_URL',
  dpeDir: 'DPE_SIM_DPE_DIR',
  dataDir: 'DPE_SIM_DATA_DIR',
  customerId: 'DPE_SIM_CUSTOMER_ID',
  userId: 'DPE_SIM_USER_ID',
  userName: 'DPE_SIM_USER_NAME',
  customerName: 'DPE_SIM_CUSTOMER_NAME',
  costs: 'DPE_SIM_COSTS',
  timeout: 'DPE_SIM_TIMEOUT',
  retries: 'DPE_SIM_RETRIES',
  historyPath: 'DPE_SIM_HISTORY_PATH',
  registryUrl: 'DPE_SIM_REGISTRY_URL',
  storeUrl: 'DPE_SIM_STORE_URL',
  queueUrl: 'DPE_SIM_QUEUE_URL',
};

export const DEFAULT_APP_URL = 'http://127.0.0.1:8787';
export const DEFAULT_HISTORY_PATH = '/partners/tracking/history';

export function isSettingKey(key: string): key is SettingKey {
  return (SETTING_KEYS as readonly string[]).includes(key);
}

export function maskKey(key: string | undefined): string {
  if (!key) return '(none)';
  return `…${key.slice(-4)}`;
}

/** A URL without its password, for messages and `config list`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}
