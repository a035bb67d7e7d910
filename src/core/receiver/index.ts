// The receiver session's public surface: what a face (wfs listen, the extension, the assistant's tools) may use.
export {
  ReceiverSession,
  type EndpointRegistration,
  type ReceiverRunOptions,
  type ReceiverSessionEvents,
  type ReceiverSessionOptions,
  type ReceiverStarted,
  type SelfTestSigner,
} from './ReceiverSession';
export {
  FixedPublicAddress,
  LocaltunnelAddress,
  type PublicAddressContext,
  type PublicAddressOpened,
  type PublicAddressProvider,
} from './publicAddressProvider';
