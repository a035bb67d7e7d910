// The signer moved to src/core/signing (one signer for the sandbox, `wfs sign` and the test kit); this name stays
// for code written against the old path.
export * from '../signing/webhookSigner';
