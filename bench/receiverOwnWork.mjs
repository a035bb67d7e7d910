// The Receiver's own JavaScript per delivery, without sockets: each signed delivery is driven by hand through the
// Receiver's request handler, against our Verifier behind the least handler on the same deliveries. Through HTTP the
// Receiver's share moves with everything around it (docs/benchmarks.md: "Where the CPU goes"); here only its code runs,
// so a change to it shows in paired rounds that HTTP's noise would hide.
import { EventEmitter } from 'node:events';
import { leastVerifierHandler, noHistory, verifyDelivery } from './receiverTargets.mjs';

/** What the Receiver reads of a request, and the events it listens for. */
class HandDrivenRequest extends EventEmitter {
  constructor(headers) {
    super();
    this.headers = headers;
    this.method = 'POST';
    this.url = '/webhooks';
  }
}

/** What the Receiver calls on a response. */
class RecordedResponse {
  headersSent = false;
  /** As on Node's ServerResponse: set directly or by writeHead, and sent when the answer ends. */
  statusCode = 200;
  writeHead(status) {
    this.statusCode = status;
    this.headersSent = true;
    return this;
  }
  end() {
    this.headersSent = true;
  }
  /** The status answered; 0 before an answer. */
  get status() {
    return this.headersSent ? this.statusCode : 0;
  }
}

/**
 * deliveries: [{ headers, body: Buffer }] signed for trust, valid at clock.now(). Each round measures both, in
 * alternating order, each with a fresh Receiver (its dedupe set empty, so no delivery is taken for a copy); the
 * figures are medians of the rounds, the difference the median of the round-by-round differences.
 */
export async function receiverOwnWork(core, trust, clock, deliveries, rounds) {
  const { Receiver } = core.receiver;
  const verifier = new core.verifier.Verifier({ issuers: [trust], clock });
  const first = deliveries[0];
  await verifyDelivery(verifier, first.headers.authorization, first.body); // the key set fetched once, before any round
  let statusesOtherThan200 = 0;
  const answered = (res) => {
    if (res.status !== 200) statusesOtherThan200++;
  };
  /** Each delivery through a request handler as node:http would call it: the head, then the body, then its end. */
  const driven = (handler) => (d) => {
    const req = new HandDrivenRequest(d.headers);
    const res = new RecordedResponse();
    handler(req, res);
    req.emit('data', d.body);
    req.emit('end');
    answered(res);
  };
  const ours = () => {
    // The handler start() installs, reached directly: TypeScript's private is a plain property at run time.
    const receiver = new Receiver({ verifier, clock, history: noHistory() });
    return driven((req, res) => receiver.serve(req, res));
  };
  const verifierAlone = () => driven(leastVerifierHandler(verifier));
  const runs = { ours: [], verifierAlone: [] };
  const makers = { ours, verifierAlone };
  // One round each first, not counted: the code is compiled and optimised before anything is timed.
  for (let round = -1; round < rounds; round++) {
    for (const name of round % 2 ? ['ours', 'verifierAlone'] : ['verifierAlone', 'ours']) {
      const handle = makers[name]();
      const t = process.hrtime.bigint();
      for (const d of deliveries) handle(d);
      if (round >= 0) runs[name].push(Number(process.hrtime.bigint() - t) / deliveries.length / 1000);
    }
  }
  if (statusesOtherThan200)
    throw new Error(`receiverOwnWork: ${statusesOtherThan200} deliveries were not answered 200`);
  const median = (l) => [...l].sort((a, b) => a - b)[Math.floor(l.length / 2)];
  const round1 = (x) => Math.round(x * 10) / 10;
  return {
    deliveries: deliveries.length,
    rounds,
    oursUs: round1(median(runs.ours)),
    verifierAloneUs: round1(median(runs.verifierAlone)),
    receiverUs: round1(median(runs.ours.map((x, i) => x - runs.verifierAlone[i]))),
  };
}
