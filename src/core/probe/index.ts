// The front door of core/probe: what the faces (CLI, extension, MCP server, test kit) may use.
export { probeProfile } from './probeProfile';
export { probeMarkdown } from './probeReport';
export { probeOutcomeSaid, probeRowSaid, probeSummarySaid, summaryLine } from './probeWords';
export { type ProbeReport } from './probeTypes';
export { DEFAULT_SPACING_MS, MAX_KEY_SETS, MAX_PROBE_REQUESTS, runProbe } from './runProbe';
export { WebhookCapture } from './webhookCapture';
