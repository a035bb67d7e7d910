// The public-address sources, and what the old wfs.receiver.tunnel values meant. Pure: unit-tested.
export type PublicAddressSource = 'none' | 'vscode' | 'url' | 'localtunnel';
export const PUBLIC_ADDRESS_SOURCES: readonly PublicAddressSource[] = ['none', 'vscode', 'url', 'localtunnel'];

/** The source the old wfs.receiver.tunnel value meant: "never" is none; "auto" and "always" opened localtunnel
 * (which now asks before opening for each real environment). */
export function sourceForOldTunnelSetting(old: unknown): PublicAddressSource | undefined {
  if (old === 'never') return 'none';
  if (old === 'auto' || old === 'always') return 'localtunnel';
  return undefined;
}
