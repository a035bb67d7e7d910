// `wfs mcp` without --history: a receiver session of its own on loopback, so the assistant has deliveries to read.
// It trusts the sandbox that signs the assistant's replays and events, forwards verified deliveries to --forward-to,
// keeps its history in memory, and tells that sandbox its address so the sandbox's workflow events arrive here.
import type { DeliverySource } from '../core/assistant';
import { ReceiverSession, type EndpointRegistration } from '../core/receiver';
import type { Clock } from '../core/time';
import { type DeliveryRecord, Forwarder, type ForwardRule, type TrustedIssuer } from '../core/webhooks';

export interface OwnReceiverOptions {
  trust: TrustedIssuer;
  clock: Clock;
  port: number;
  /** --forward-to, as a rule for every verified delivery (with its TLS). */
  forward?: ForwardRule;
  /** The signing sandbox, told the receiver's address while it runs. */
  sandbox: EndpointRegistration;
  /** Said on stderr: an endpoint not told, a warning of the session. */
  warn: (message: string) => void;
}

export interface OwnReceiver {
  url: string;
  deliveries: DeliverySource;
  stop(): Promise<void>;
}

export async function startOwnReceiver(o: OwnReceiverOptions): Promise<OwnReceiver> {
  const session = new ReceiverSession({ clock: o.clock, history: {}, issuers: [o.trust] });
  session.on('endpoint-warning', o.warn);
  session.on('warning', o.warn);
  let url: string;
  try {
    ({ url } = await session.start({
      port: o.port,
      forward: o.forward ? new Forwarder({ rules: [o.forward] }) : undefined,
      endpoints: [o.sandbox],
    }));
  } catch (err) {
    await session.close();
    throw err;
  }
  return {
    url,
    deliveries: {
      description: `the receiver wfs mcp runs at ${url} (history in memory)`,
      records: async () => session.history.all(),
      body: (id) => session.history.body(id),
      replays: () => session.history.replayAnswers(),
      replayed: (answer) => session.history.replayAnswered(answer),
      onChange: (listener) => {
        const heard = (_r: DeliveryRecord) => listener();
        session.on('delivery', heard);
        return () => void session.off('delivery', heard);
      },
    },
    stop: () => session.close(),
  };
}
