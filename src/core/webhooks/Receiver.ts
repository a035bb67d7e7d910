// The embedded webhook receiver (spec: Events, Authentication 6; docs/design.md): node:http on loopback,
// raw body with a size cap, the seven verification steps, dedupe on webhookId recorded only after verification,
// an optional response override, forwarding to the developer's own app, and a log of every request.
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isUtf8 } from 'node:buffer';
import { isAllowedHost } from '../http/hostCheck';
import { connectableAddress } from '../http/everyInterface';
import { healthAnswer, isHealthRequest } from '../http/health';
import type { Clock } from '../time/clock';
import { DedupeSet } from './DedupeSet';
import { DeliveryHistory, REFUSED_BODY_PREFIX_BYTES } from './DeliveryHistory';
import { DeliveryIds, deliveryDedupeKey, describeEvent, newRecord, type DeliveryRecord } from './deliveryRecord';
import type { Forwarder } from './forwardFanOut';
import { TrustedToken, type HeadersVerdict, type Verifier, type VerificationResult } from './Verifier';
import { BodiesInFlight, keptPrefix, readCapped, readHashed, type BodyLost, type HashedBody } from './requestBody';
import { answeredChecks } from './verificationSteps';
import { english, said, saidOf, type Said } from '../presentation/said';
import { claimsSignedHere } from './signedHereClaim';
import { listenOn } from '../http/listenError';
import { ConnectionBudget } from '../http/connectionBudget';
import { TypedEmitter } from '../events/TypedEmitter';
import { PATH_PROBE_HEADER, PathProbes } from './pathProbes';

export interface ReceiverOptions {
  verifier: Verifier;
  clock: Clock;
  host?: string;
  port?: number;
  path?: string;
  maxBodyBytes?: number;
  /** Bytes all the bodies being received may hold at once (at least maxBodyBytes); over it a request is answered 503
   * with Retry-After, and the service sends it again. */
  maxBodiesInFlightBytes?: number;
  /** The budget itself, when the caller keeps it (to share one between receivers, or to watch what is held); it
   * replaces maxBodiesInFlightBytes. */
  bodiesInFlight?: BodiesInFlight;
  /** Connections open at once. Each costs a file descriptor of the process (the extension host's, shared) and up to
   * its headers in memory. Past it the connection idle the longest is closed to make room; a new one is refused only
   * while every connection has a request in progress (see ConnectionBudget). */
  maxConnections?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** How often Node checks those timeouts (its default is 30 s). */
  timeoutCheckIntervalMs?: number;
  history?: DeliveryHistory;
  /** Answer verified deliveries with this status instead (e.g. 500 to rehearse the service's retries). */
  respondWith?: number;
  /** Forward rules: each verified delivery goes on to the apps whose rules its signed topic matches. */
  forward?: Forwarder;
  /** Host names answered besides loopback ones: the public address in use (a tunnel's, or your own proxy's). */
  publicHosts?: readonly string[];
  /** Host names always answered besides loopback ones (--allow-host: the names other containers reach it by). */
  allowedHosts?: readonly string[];
}

export const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_MAX_BODIES_IN_FLIGHT = 32 * 1024 * 1024;
/** The service, a tunnel's client or a proxy open a handful; anyone who reaches the address could open thousands, and
 * idle ones give way. Room for a burst of a thousand deliveries at once, all waiting for a key set, each answered
 * rather than reset; each connection is a descriptor and at most Node's 16 KiB of headers. */
const DEFAULT_MAX_CONNECTIONS = 1024;
const EMPTY = Buffer.alloc(0);
/** The characters of a trusted token's signature that name it among the bodies being received: 132 bits. */
const TOKEN_KEY_CHARS = 22;

interface VerifiedEvent {
  /** The signed body, parsed. */
  event: unknown;
  record: DeliveryRecord;
}

export interface ReceiverEvents {
  /** Every request, once answered. */
  delivery: [DeliveryRecord];
  /** A verified, non-duplicate delivery, before it is answered. */
  'verified-event': [VerifiedEvent];
  /** A fault of ours while handling a request (answered 500). */
  failure: [DeliveryRecord, unknown];
}

export class Receiver extends TypedEmitter<ReceiverEvents> {
  readonly history: DeliveryHistory;
  private server?: Server;
  private readonly dedupe = new DedupeSet();
  private readonly ids = new DeliveryIds();
  private readonly inFlight: BodiesInFlight;
  /** webhookIds of verified deliveries still being processed. */
  private readonly processing = new Set<string>();
  /** The signatures of the tokens whose body is being received and held: one body per token at a time, so a token
   * captured on its way (the tunnel's plaintext leg) and replayed with other bodies holds one body, not the budget. */
  private readonly receiving = new Set<string>();
  /** The signed webhookIds of the public-address self-tests under way: only these are ours, never forwarded. */
  private readonly selfTests = new Set<string>();
  /** The public path watch's probes under way: answered 204 and not recorded (see pathProbes.ts). */
  readonly pathProbes = new PathProbes();
  private connections?: ConnectionBudget;
  private respondWith?: number;
  private localUrl?: string;
  private publicHosts: readonly string[];
  /** The names answered: the fixed ones (allowedHosts) and the public address's. */
  private answeredHosts: readonly string[];
  /** Whether GET /healthz answers 200: set by whoever started it once everything it needs is done. */
  private healthy = false;
  /** The last Host header value found allowed: a sender repeats it on every request, so it is parsed once. */
  private allowedHost?: string;
  private readonly webhookPath: string;

  constructor(private readonly options: ReceiverOptions) {
    super();
    this.history = options.history ?? new DeliveryHistory();
    this.respondWith = options.respondWith;
    this.publicHosts = options.publicHosts ?? [];
    this.answeredHosts = [...(options.allowedHosts ?? []), ...this.publicHosts];
    this.webhookPath = options.path ?? '/webhooks';
    this.inFlight =
      options.bodiesInFlight ??
      new BodiesInFlight(Math.max(options.maxBodiesInFlightBytes ?? DEFAULT_MAX_BODIES_IN_FLIGHT, this.maxBody));
  }

  private get maxBody(): number {
    return this.options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  }

  /** The public address's host names (the tunnel opened, or moved): requests naming them are answered too. */
  setPublicHosts(hosts: readonly string[]): void {
    this.publicHosts = hosts;
    this.answeredHosts = [...(this.options.allowedHosts ?? []), ...hosts];
    this.allowedHost = undefined;
  }

  get url(): string | undefined {
    return this.localUrl;
  }

  get path(): string {
    return this.webhookPath;
  }

  /** The public-address self-test is about to send a delivery whose signed body carries this webhookId: it is ours,
   * not the user's event, so it is not forwarded to their app. Call the result when the test is over. Nothing
   * unsigned (a header, a topic a test webhook may carry) marks a delivery as the self-test. */
  expectSelfTest(webhookId: string): () => void {
    this.selfTests.add(webhookId);
    return () => this.selfTests.delete(webhookId);
  }

  /** GET /healthz answers 200 from now on (true), or 503 again (false). */
  setReady(ready: boolean): void {
    this.healthy = ready;
  }

  /** Sets or clears (undefined) the status answered to verified deliveries. */
  setResponseOverride(status: number | undefined): void {
    if (status !== undefined && !(Number.isInteger(status) && status >= 200 && status <= 599))
      throw new RangeError('the override must be an HTTP status from 200 to 599');
    this.respondWith = status;
  }

  async start(): Promise<string> {
    if (this.localUrl) return this.localUrl;
    this.rememberAcknowledged(this.history.acknowledgedKeys());
    const connections = new ConnectionBudget(this.options.maxConnections ?? DEFAULT_MAX_CONNECTIONS);
    this.connections = connections;
    const server = createServer(
      { connectionsCheckingInterval: this.options.timeoutCheckIntervalMs ?? 1000 },
      (req, res) => {
        connections.requestOn(req.socket);
        this.serve(req, res);
      },
    );
    // Not Node's maxConnections, which closes the new connection however idle the others are.
    server.on('connection', (socket: Socket) => connections.admit(socket));
    // Counted from the connection, not the first byte (Node's check: an answer 408, then closed): a connection that
    // sends nothing holds a descriptor for 10 s at most, even while nothing needs its place.
    server.headersTimeout = this.options.headersTimeoutMs ?? 10_000;
    server.requestTimeout = this.options.bodyTimeoutMs ?? 30_000;
    // Loopback only: the public side is the tunnel's job.
    await listenOn(server, this.options.port ?? 0, this.options.host ?? '127.0.0.1');
    this.server = server;
    const a = server.address() as AddressInfo;
    // Bound to every interface: the URL to connect to here is loopback's.
    const address = connectableAddress(a.address);
    this.localUrl = `http://${a.family === 'IPv6' ? `[${address}]` : address}:${a.port}${this.path}`;
    return this.localUrl;
  }

  /** The webhookIds the history saw acknowledged (an earlier run's, or this window's before Stop Receiver), those
   * whose records its budgets dropped included: a copy the service sends again after a restart is still a duplicate,
   * and is not forwarded to your app twice. Oldest first, so the set forgets them in the order they came. */
  private rememberAcknowledged(keys: readonly string[]): void {
    for (let i = Math.max(0, keys.length - this.dedupe.cap); i < keys.length; i++) this.dedupe.add(keys[i]!);
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    this.healthy = false;
    this.connections = undefined;
    this.localUrl = undefined;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
    await this.history.flush();
  }

  /**
   * One request, on one straight path: check (Host, path, method, then steps 1 to 5 from the headers), read (the
   * body held for a token trusted through step 5, else hashed as it streams by), decide (step 6, then what the
   * delivery is), and answer(), which records before it answers. Synchronous from the body's last byte to the answer
   * unless something must be waited for (a key set to fetch, a forward, a history write): each wait resumes the path
   * where it stopped.
   */
  private serve(req: IncomingMessage, res: ServerResponse): void {
    const d: Delivery = {
      req,
      res,
      record: newRecord(req, this.options.clock.now(), this.ids.next()),
      started: performance.now(),
      held: 0,
      whole: false,
    };
    try {
      const early = this.refuseEarly(req, d.record);
      if (early === 'health') return this.health(req, res);
      if (early) return this.answer(d, early);
      if (this.pathProbes.take(req.headers[PATH_PROBE_HEADER])) return void writeAnswer(res, { status: 204, text: '' });
      // Node keeps the first Authorization of a request and drops any other: always one string, or none.
      const verdict = this.options.verifier.headers(req.headers.authorization);
      // While a key set is fetched (at most its 5 s timeout), the body waits in the socket: nothing is held.
      if (verdict instanceof Promise) void verdict.then((v) => this.guarded(d, () => this.read(d, v)));
      else this.read(d, verdict);
    } catch (err) {
      this.failed(d, err);
    }
  }

  /** Reads the body, then decide(). Held only for a token trusted through step 5, one body per token at a time; a
   * refusal, or a second body under a token whose first is still being received, is hashed as it streams by. */
  private read(d: Delivery, verdict: HeadersVerdict): void {
    // A sender gone while the key set was fetched: its request will never end.
    if (d.req.destroyed) return this.lost(d, 'aborted');
    // Its signature's first characters name the token: a Set hashes its key, and a signature runs to hundreds of
    // characters. Only tokens the service signed get here, and two of them alike in 132 bits do not happen.
    const signature = verdict instanceof TrustedToken ? verdict.decoded.signature.slice(0, TOKEN_KEY_CHARS) : undefined;
    if (signature === undefined || this.receiving.has(signature)) {
      if (signature === undefined) this.connections?.refusedOn(d.req.socket);
      return readHashed(d.req, this.maxBody, REFUSED_BODY_PREFIX_BYTES, (body) =>
        this.guarded(d, () => this.decide(d, verdict, body)),
      );
    }
    this.receiving.add(signature);
    d.receiving = signature;
    d.whole = true;
    d.verdict = verdict;
    readCapped(d.req, this.maxBody, this.inFlight, d, this.heldBodyRead);
  }

  /** A held body read (or lost): the token's claim on its one body ends, then decide(). */
  private readonly heldBodyRead = (body: HashedBody | BodyLost, d: Delivery): void => {
    this.doneReceiving(d);
    try {
      this.decide(d, d.verdict!, body);
    } catch (err) {
      this.failed(d, err);
    }
  };

  /** What the delivery is, from its verdict and its body: lost, refused, a copy still being received, verified but
   * not JSON, a duplicate, or a verified event, forwarded when set up and answered. */
  private decide(d: Delivery, verdict: HeadersVerdict, body: HashedBody | BodyLost): void {
    if (typeof body === 'string') return this.lost(d, body);
    const { record } = d;
    // A copy not held (another body under its token is being received) is answered 503 below: it does not spend a
    // token trusted once, which the held one needs.
    const result = verdict instanceof TrustedToken ? this.options.verifier.body(verdict, body, d.whole) : verdict;
    if (!result.ok) return this.refuse(d, result, body);
    // A held body is decoded once: its text shows whether it is UTF-8, since the decoder turns every invalid
    // sequence into U+FFFD; only a text that has one is checked byte by byte.
    const text = d.whole ? body.kept.toString('utf8') : undefined;
    const utf8 = text === undefined || text.includes('\uFFFD') ? isUtf8(body.kept) : true;
    d.kept = body.kept;
    // The history holds an ASCII body as this text; it tells which are (DeliveryHistory.add, keptBytes.ts).
    d.keptText = text;
    record.body = { size: body.size, sha256: body.sha256, kept: body.kept.length, utf8 };
    record.jwt = { header: result.header, claims: result.claims };
    if (!d.whole) {
      // A true copy of a body still being received under its token: the service sends it again once the first is
      // done, when it is answered as a duplicate, or processed if the first failed.
      noted(
        record,
        said(
          'answered 503: another body under the same token was still being received; this copy was hashed, not kept (the service sends it again)',
        ),
      );
      return this.answer(d, {
        status: 503,
        text: 'a copy of this delivery is still being received: send it again shortly\n',
        retryAfterS: 1,
      });
    }
    record.checks = result.checks;
    record.verified = true;
    // Signed by this toolkit on request (Edit and Resend, a fixture, the audit, the assistant, `wfs send`): not the
    // service's, and marked so.
    if ((verdict as TrustedToken).signedHere !== undefined || claimsSignedHere(result.claims)) record.signedHere = true;
    let event: unknown;
    try {
      if (!utf8) throw new Error('the body is not UTF-8');
      event = JSON.parse(text!);
    } catch {
      return this.answer(d, { status: 400, text: 'the body is not JSON\n' });
    }
    describeEvent(record, event, d.req, (verdict as TrustedToken).decoded.signatureBytes);
    // Only signed bytes decide: the body's webhookId, or the token itself (see describeEvent). A copy that arrives
    // while the first is still being processed is a duplicate too.
    // A copy of an event the service sent and this receiver acknowledged is a duplicate, whoever signed it. But a
    // delivery signed on request never enters the service's duplicate set: the service's own retry of that event
    // must still reach the app.
    const key = deliveryDedupeKey(record);
    if (key && (this.dedupe.has(key) || this.processing.has(key))) {
      record.duplicate = true;
      return this.answer(d, { status: 200, text: 'duplicate\n' });
    }
    if (key && !claimsSignedHere(result.claims)) {
      this.processing.add(key);
      d.claimed = key;
    }
    // The public-address self-test is ours, not the user's event: it is never forwarded to their app.
    const forwarder = this.options.forward;
    const sending =
      forwarder && !(record.webhookId !== undefined && this.selfTests.has(record.webhookId))
        ? forwarder.send(record, d.req.headers, body.kept)
        : undefined;
    if (sending) {
      // A forward may take seconds: the text is not held meanwhile, and the history keeps the bytes.
      d.keptText = undefined;
      void sending.then((forwards) =>
        this.guarded(d, () => {
          record.forwards = forwards;
          this.dispatched(d, event, forwarder!.answerStatus(forwards));
        }),
      );
    } else this.dispatched(d, event, 200);
  }

  private dispatched(d: Delivery, event: unknown, status: number): void {
    if (this.respondWith !== undefined) status = this.respondWith;
    this.emit('verified-event', { event, record: d.record });
    // A 2xx says all there is to say: no text, so the answer leaves in one write (see writeAnswer).
    this.answer(d, status < 300 ? { status, text: '' } : { status, text: 'not processed\n' });
  }

  /** Before the body is read: only our own names (loopback, or the public address in use; a DNS-rebinding page
   * names its own host), the webhook path, POST. */
  private refuseEarly(req: IncomingMessage, record: DeliveryRecord): Answer | 'health' | undefined {
    const host = req.headers.host;
    if (host === undefined || host !== this.allowedHost) {
      if (isAllowedHost(host, this.answeredHosts)) this.allowedHost = host;
      else {
        noted(
          record,
          said("Host {0} is not this receiver's: answered 421 without reading the body", JSON.stringify(host ?? '')),
        );
        return { status: 421, text: 'misdirected request: this receiver answers only its own addresses\n' };
      }
    }
    // A health check is not a delivery: answered, never recorded nor counted.
    if (isHealthRequest(req.method, req.url)) return 'health';
    if (record.path !== this.webhookPath) return { status: 404, text: 'not the webhook path\n' };
    if (req.method !== 'POST') return { status: 405, text: 'POST only\n' };
    return undefined;
  }

  /** GET /healthz: 200 once ready (setReady), 503 before; the request's connection stays as it is. */
  private health(req: IncomingMessage, res: ServerResponse): void {
    const { status, body } = healthAnswer('receiver', this.healthy);
    req.resume();
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** A refusal, answered 403 (503 when a key set could not be consulted). It keeps a prefix of the body and the hash of
   * the whole: a flood of them costs little. */
  private refuse(d: Delivery, result: VerificationResult, body: HashedBody): void {
    const { record } = d;
    d.kept = d.whole ? keptPrefix(body.kept, body.size, REFUSED_BODY_PREFIX_BYTES) : body.kept;
    record.body = { size: body.size, sha256: body.sha256, kept: d.kept.length, utf8: isUtf8(d.kept) };
    record.checks = result.checks;
    record.jwt = result.header || result.claims ? { header: result.header, claims: result.claims } : undefined;
    // Nothing decided: a key set that could not be consulted may hold a key just rotated in. A 403 would lose a
    // genuine delivery (the service resends only on 5xx); a forged one gains nothing from a 503.
    if (result.retryAfterS !== undefined) {
      noted(
        record,
        said(
          'answered 503: the key set could not be consulted (step 3 says why), so nothing was decided; the service sends the delivery again (Retry-After {0} s)',
          result.retryAfterS,
        ),
      );
      return this.answer(d, {
        status: 503,
        text: 'step 3 (signing key) cannot be checked right now: send it again shortly\n',
        retryAfterS: result.retryAfterS,
      });
    }
    // The step, not its detail: enough for the sender's developer (and the audit) to know where to look, nothing
    // about keys or trust.
    const failed = result.checks.find((c) => !c.ok && c.step < 7);
    this.answer(d, {
      status: 403,
      text: failed ? `forbidden: step ${failed.step} (${failed.name}) failed\n` : 'forbidden\n',
    });
  }

  /** A body not read: too large, over the bytes all bodies may hold at once, or cut short. */
  private lost(d: Delivery, why: BodyLost): void {
    if (why === 'too-large') {
      // The rest of the body is read and discarded (Node dumps it after the answer), so the sender reads a 413,
      // never a reset; the server's request timeout bounds how long that may take.
      // Not read, so its size is what its header declared (none when chunked): the line says how large it was.
      const declared = Number(d.req.headers['content-length']);
      if (Number.isSafeInteger(declared) && declared > 0) d.record.body = { ...d.record.body, size: declared };
      noted(
        d.record,
        declared > 0
          ? said('body over the {0}-byte limit ({1} bytes declared); not kept', this.maxBody, declared)
          : said('body over the {0}-byte limit; not kept', this.maxBody),
      );
      return this.answer(d, { status: 413, text: 'body too large\n' });
    }
    if (why === 'busy') {
      noted(
        d.record,
        said(
          'answered 503: the bodies being received already hold the {0}-byte limit; not kept (the service sends it again)',
          this.inFlight.limit,
        ),
      );
      return this.answer(d, {
        status: 503,
        text: 'busy receiving other deliveries: send it again shortly\n',
        retryAfterS: 1,
      });
    }
    return this.answer(d, { status: 400, text: 'body not received\n' });
  }

  /** Records, then answers. A 2xx leaves only once the record reached the OS: an acknowledged delivery survives a
   * crash. If it cannot be written, the answer is 503, so the service sends it again. Step 7 records the answer
   * that left. */
  private answer(d: Delivery, a: Answer): void {
    const { record } = d;
    record.status = a.status;
    record.durationMs = Math.round((performance.now() - d.started) * 1000) / 1000;
    if (record.verified && a.status !== 200) record.checks = answeredChecks(record.checks, a.status, a.text);
    const written = this.history.add(record, d.kept ?? EMPTY, d.keptText);
    // Not held while the record is written: the history holds the text if it keeps it.
    d.keptText = undefined;
    if (!written) return this.send(d, a);
    if (a.status < 200 || a.status >= 300) {
      written.catch(() => undefined); // reported through the log's error-persisting event
      return this.send(d, a);
    }
    written.then(
      () => this.guarded(d, () => this.send(d, a)),
      (err: Error) =>
        this.guarded(d, () => {
          record.status = 503;
          noted(
            record,
            said('answered 503 instead: the delivery could not be written to the history ({0})', saidOf(err)),
          );
          const text = 'not stored\n';
          if (record.verified) record.checks = answeredChecks(record.checks, 503, text);
          this.send(d, { status: 503, text });
        }),
    );
  }

  private send(d: Delivery, answer: Answer): void {
    // Only a delivery answered 2xx counts as processed: a 5xx is resent by the service and must not look duplicated.
    if (d.claimed !== undefined && answer.status >= 200 && answer.status < 300) this.dedupe.add(d.claimed);
    this.letGo(d);
    if (!d.res.headersSent) writeAnswer(d.res, answer);
    this.emit('delivery', d.record);
  }

  /** Runs a step of a delivery after a wait; anything it throws is answered by failed(), never left to crash the
   * host. */
  private guarded(d: Delivery, step: () => void): void {
    try {
      step();
    } catch (err) {
      this.failed(d, err);
    }
  }

  /** A fault of ours while handling a request: answered 500 (the service sends it again) and reported. */
  private failed(d: Delivery, err: unknown): void {
    const { res, record } = d;
    noted(record, said('not handled: {0}', saidOf(err)));
    this.letGo(d);
    if (!res.headersSent) writeAnswer(res, { status: 500, text: 'internal error\n' });
    this.emit('failure', record, err);
  }

  /** Gives back what the delivery holds: its claim on its webhookId (a copy answered as a duplicate, or one that
   * failed before claiming, never releases the claim of the copy still being processed), its token's claim on the
   * one body being received, and its bytes of the budget for bodies in flight. */
  private letGo(d: Delivery): void {
    if (d.claimed !== undefined) {
      this.processing.delete(d.claimed);
      d.claimed = undefined;
    }
    this.doneReceiving(d);
    if (d.held === 0) return;
    this.inFlight.give(d.held);
    d.held = 0;
  }

  /** Ends the delivery's claim on its token's one body being received. */
  private doneReceiving(d: Delivery): void {
    if (d.receiving === undefined) return;
    this.receiving.delete(d.receiving);
    d.receiving = undefined;
  }
}

interface Answer {
  status: number;
  text: string;
  /** Sent as Retry-After, in seconds. */
  retryAfterS?: number;
}

/** One request on its way through the steps. */
interface Delivery {
  req: IncomingMessage;
  res: ServerResponse;
  record: DeliveryRecord;
  started: number;
  /** Bytes its body holds of the receiver's budget for bodies in flight, until it is answered. */
  held: number;
  /** Its body is held whole (its token passed steps 1 to 5 and no other body under it was being received). */
  whole: boolean;
  /** The verdict on its headers, while a held body is being read. */
  verdict?: HeadersVerdict;
  /** The body bytes the history keeps: all of a verified one, a prefix of a refused one. */
  kept?: Buffer;
  /** The same bytes as text, when they are all ASCII (a verified body's, decoded to parse it). */
  keptText?: string;
  /** The webhookId (its dedupe key) this delivery marked as being processed, until it is answered. */
  claimed?: string;
  /** Its token's signature (the first TOKEN_KEY_CHARS), while its body is being received (Receiver.receiving). */
  receiving?: string;
}

function writeAnswer(res: ServerResponse, { status, text, retryAfterS }: Answer): void {
  // With a body, Node sends the head and the body by writev; an empty answer leaves in one write.
  if (text) {
    const headers: OutgoingHttpHeaders = {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    };
    if (retryAfterS !== undefined) headers['retry-after'] = String(retryAfterS);
    res.writeHead(status, headers);
    res.end(text);
  } else {
    // Ended without a body, the answer carries Content-Length: 0 from Node itself: no header object to validate.
    res.statusCode = status;
    res.end();
  }
}

/** The topic of the public-address self-test's signed delivery (see core/tunnel/publicAddressTest.ts). */
export const SELF_TEST_TOPIC = 'wfs/self-test';

/** A record's note, in English and as said. */
function noted(record: DeliveryRecord, what: Said): void {
  record.note = english(what);
  record.noteSaid = what;
}
