// The front door of core/time: what the faces (CLI, extension, MCP server, test kit) may use.
export { type Clock, SystemClock, type TimerHandle } from './clock';
export { triggeredAtTimestamp } from './timestamps';
