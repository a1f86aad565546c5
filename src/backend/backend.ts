/**
 * The one interface the CLI talks to. Two implementations: LocalBackend (in-process, the
 * bundled engine and the SQLite store) and RemoteBackend (HTTP to a partner service, or to
 * `dpe-sim serve`). Bodies are the partner API's, from the contract.
 */
import type {
  AuthRequest,
  AuthResponse,
  CalcRequest,
  CalcResponse,
  HistoryRequest,
  HistoryResponse,
  InitialRequest,
  InitialResponse,
  PreRequest,
  PreResponse,
  TokenInfoResponse,
  TokenLoginResponse,
} from '../contract/schemas.js';
import type { OnProgress } from '../contract/progress.js';

/** How the caller follows a long run: progress as it goes (the local backend only). */
export interface RunOptions {
  onProgress?: OnProgress;
}

export interface Backend {
  readonly kind: 'local' | 'remote';
  auth(req: AuthRequest): Promise<AuthResponse>;
  pre(req: PreRequest): Promise<PreResponse>;
  initial(req: InitialRequest, opts?: RunOptions): Promise<InitialResponse>;
  calc(req: CalcRequest): Promise<CalcResponse>;
  history(req: HistoryRequest): Promise<HistoryResponse>;
  /** GET /partners/token/{partnerToken}: looks at a token without using it */
  tokenInfo(token: string): Promise<TokenInfoResponse>;
  /** GET /partners/tokenLogin/{partnerToken}: uses the token (once) */
  tokenLogin(token: string): Promise<TokenLoginResponse>;
  close(): Promise<void>;
}

export function loginUrl(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, '')}/public/partnerLogin.html?partnerToken=${encodeURIComponent(token)}`;
}
