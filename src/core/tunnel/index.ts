// The front door of core/tunnel: what the faces (CLI, extension, MCP server, test kit) may use.
export { TunnelError, type TunnelState } from './Tunnel';
export { type PublicAddressTestResult } from './publicAddressTest';
export { tunnelNameProblem, tunnelNameProblemSaid } from './tunnelName';
export { MISSED_DELIVERIES, WHAT_TO_DO } from './publicPathAdvice';
export { type PublicPathState } from './publicPathWatch';
