// The front door of core's own root modules: what the faces may use.
export { byteSize } from './byteSize';
export { parseJsonText } from './jsonText';
export { TOOLKIT_VERSION } from './version';
