// Our name and version, sent as X-Svc-UserAgent.
import manifest from '../../package.json';

export const TOOLKIT_NAME = manifest.name;
export const TOOLKIT_VERSION = manifest.version;
export const USER_AGENT = `${TOOLKIT_NAME}/${TOOLKIT_VERSION}`;
