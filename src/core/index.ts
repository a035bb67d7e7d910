// The front door of core's own root modules, and the light door: names from other folders that `wfs --help` reaches
// (src/cli/output.ts renders and reads stdin). Each module named here imports no HTTP client, no crypto library and no
// server, so that path stays a few dozen KiB (cliStartup.test.ts); the folders' own doors would bring all of theirs.
export { byteSize } from './byteSize';
export { saidsLeftOut, withoutSaids } from './presentation/said';
export { parseJsonText } from './jsonText';
export { TOOLKIT_VERSION } from './version';
export { MAX_REQUEST_BYTES } from './sandbox/sandboxRequest';
export { deliveryFaultsText } from './sandbox/deliveryFaultsText';
export { forwardFailed, type ForwardAnswerRecord } from './webhooks/forwardAnswer';
export { forwardLine } from './webhooks/forwardText';
