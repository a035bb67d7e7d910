// The front door of core/auth: what the faces (CLI, extension, MCP server, test kit) may use.
export {
  type Credentials,
  secretKeyFor,
  type SecretStorageFailure,
  TokenManager,
  type TokenState,
  type TokenStateEvent,
} from './TokenManager';
export { SignInRequired } from './authErrors';
export { passwordKeyFor } from './secretScope';
export { type Disposable, MemorySecretStore, type SecretStore } from './secretStore';
