// The front door of core/signing: what the faces (CLI, extension, MCP server, test kit) may use.
export { type JwksServer, serveJwks } from './jwksServer';
export { KeyFilesError } from './keyFolderFiles';
export { type KeyFolderTrust, keySetsWithFolders, readKeyFolderTrust } from './keyFolderTrust';
export { DEFAULT_TEST_AUDIENCE, DEFAULT_TEST_ISSUER, readKeyPair, writeKeyPair } from './keyPairFiles';
export { sha256Hex, type SignOptions, WebhookSigner } from './webhookSigner';
