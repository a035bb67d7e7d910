// The front door of core/http: what the faces (CLI, extension, MCP server, test kit) may use.
export { userInfoProblem } from './addressUserInfo';
export { forwardableHeaders } from './hopByHop';
export { httpUrlProblem, httpUrlProblemSaid } from './httpUrlProblem';
export { allowedHostProblem, isAllowedHost } from './hostCheck';
export { isEveryInterface } from './everyInterface';
export { ListenError, listenOn } from './listenError';
export { isLoopbackHost, testEndpointIsLocal } from './loopback';
export { type BaseUrlNames, pathNotServedAdvice } from './pathNotServed';
export { joinUrl, SIGN_IN_PATH, startWorkflowUrl } from './paths';
export {
  checkProxySettings,
  ProxyConfigError,
  proxyDispatcher,
  type ProxySettings,
  proxySettingsFromEnv,
} from './proxy';
export { DEFAULT_429_BACKOFF, RateGate } from './rateGate';
export { httpRequest, redactUrl, setDefaultDispatcher, TransportError } from './request';
export { missingSchemeHint } from './schemeHint';
export { CaFileError, type TargetTls, targetDispatcher, targetTlsFrom, TlsOptionError } from './targetTls';
export { type CaRemedy } from './tlsFailure';
export { DEFAULT_DELIVERY_TIMEOUT_MS, sendDelivery } from './sendDelivery';
export { OutcomeUnknown, PathNotServed, ServiceError, ValidationError } from './serviceErrors';
