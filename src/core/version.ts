// Our name and version, sent as X-Svc-UserAgent.
// Named imports, not the default: the bundler then keeps these two fields, where the whole manifest (every command,
// setting and tool of the extension, 43 KB minified) would be parsed by each `wfs --help`.
import { name, version } from '../../package.json';

export const TOOLKIT_NAME = name;
export const TOOLKIT_VERSION = version;
export const USER_AGENT = `${TOOLKIT_NAME}/${TOOLKIT_VERSION}`;
