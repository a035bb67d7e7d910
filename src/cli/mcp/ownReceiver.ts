// `wfs mcp` without --history: a receiver of its own on loopback, so the assistant has deliveries to read. It trusts
// the sandbox that signs the assistant's replays and events, forwards verified deliveries to --forward-to, keeps its
// history in memory, and is registered with that sandbox so its workflow events arrive here.
import { httpRequest } from '../../core/http/request';
import { joinUrl } from '../../core/http/paths';
import { SANDBOX_SECRET_HEADER } from '../../core/sandbox/sandboxAccess';
import type { Clock } from '../../core/time/clock';
import type { DeliverySource } from '../../core/assistant/assistantContext';
import { DeliveryHistory } from '../../core/webhooks/DeliveryHistory';
import { forwardEverything } from '../../core/webhooks/forwardRules';
import { Forwarder } from '../../core/webhooks/forwardFanOut';
import { Receiver } from '../../core/webhooks/Receiver';
import { Verifier, type TrustedIssuer } from '../../core/webhooks/Verifier';

export interface OwnReceiverOptions {
  trust: TrustedIssuer;
  clock: Clock;
  port: number;
  forwardTo?: string;
  historyMemoryBytes?: number;
  /** Registers the receiver's address with the signing sandbox, so its workflow events come here. */
  register: (url: string, registered: boolean) => Promise<void>;
}

export interface OwnReceiver {
  url: string;
  deliveries: DeliverySource;
  stop(): Promise<void>;
}

export async function startOwnReceiver(o: OwnReceiverOptions): Promise<OwnReceiver> {
  const history = new DeliveryHistory({ memoryBudgetBytes: o.historyMemoryBytes });
  const receiver = new Receiver({
    verifier: new Verifier({ issuers: [o.trust], clock: o.clock }),
    clock: o.clock,
    port: o.port,
    history,
    forward: o.forwardTo ? new Forwarder({ rules: [forwardEverything(o.forwardTo, '--forward-to')] }) : undefined,
  });
  const url = await receiver.start();
  await o.register(url, true).catch(async (err: Error) => {
    await receiver.stop();
    throw err;
  });
  return {
    url,
    deliveries: {
      description: `the receiver wfs mcp runs at ${url} (history in memory)`,
      records: async () => history.all(),
      body: (id) => history.body(id),
      onChange: (listener) => {
        receiver.on('delivery', listener);
        return () => void receiver.off('delivery', listener);
      },
    },
    stop: async () => {
      await o.register(url, false).catch(() => undefined);
      await receiver.stop();
      await history.close();
    },
  };
}

/** Registers (or removes) an address with a running `wfs sandbox` through its control API. */
export async function registerWithSandbox(
  sandboxUrl: string,
  secret: string,
  url: string,
  registered: boolean,
): Promise<void> {
  const res = await httpRequest({
    method: registered ? 'POST' : 'DELETE',
    url: joinUrl(sandboxUrl, '/sandbox/webhooks'),
    json: { url },
    headers: { [SANDBOX_SECRET_HEADER]: secret },
    timeoutMs: 10_000,
  });
  if (res.status >= 300)
    throw new Error(`the sandbox at ${sandboxUrl} answered ${res.status} when the receiver's address was registered`);
}
