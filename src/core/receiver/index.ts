// The receiver session's public surface: what a face (wfs listen, the extension, the assistant's tools) may use.
export { ReceiverSession, type EndpointRegistration } from './ReceiverSession';
export {
  FixedPublicAddress,
  LocaltunnelAddress,
  type PublicAddressContext,
  type PublicAddressOpened,
  type PublicAddressProvider,
} from './publicAddressProvider';
export { type PublicPathChange, type PublicPathCheckOptions } from './publicPathRun';
