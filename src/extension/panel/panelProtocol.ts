// The webhook panel's messages, one discriminated union per direction. media/panel/panel.js names these types
// in its JSDoc; the host validates every message from the webview on arrival (a webview is a page: treat what it
// sends like any other input), and answers an unknown or malformed one with a log line, never an exception.
import type { DeliveryDetail, DeliveryFilter, DeliveryRow } from './deliveryView';

const PANEL_ACTIONS = [
  'replay-local',
  'replay-forward',
  'replay-fresh',
  'copy-curl',
  'copy-powershell',
  'copy-cmd',
  'edit-resend',
  'send-changes',
  'save-fixture',
  'export-one',
  'export-all',
  'jump',
] as const;
export type PanelAction = (typeof PANEL_ACTIONS)[number];

/** Webview → extension. */
export type PanelRequest =
  | { type: 'ready'; filter?: DeliveryFilter; paused?: boolean; selectedId?: string | null }
  | { type: 'filter'; filter: DeliveryFilter }
  | { type: 'pause'; paused: boolean }
  | { type: 'select'; id: string }
  | { type: 'clear' }
  | { type: 'override'; status: number | null }
  | { type: 'start-receiver' }
  | { type: 'action'; action: PanelAction; id?: string };

/** Extension → webview. */
export type PanelUpdate =
  | { type: 'rows'; rows: DeliveryRow[]; total: number; storage: string; filterProblem?: string }
  | { type: 'append'; row: DeliveryRow; total: number }
  | { type: 'paused-count'; count: number }
  | { type: 'detail'; detail: DeliveryDetail | null }
  | { type: 'override'; status: number | null }
  | { type: 'receiver'; receiver: ReceiverLine }
  | { type: 'result'; result: ActionResult };

/** What an action on one delivery came to, in words (said by the panel's status line). */
/** @public media/panel/panel.js names it in its JSDoc types (tsc -p media/panel checks them). */
export interface ActionResult {
  /** The delivery acted on. */
  id: string;
  text: string;
  /** The app may have skipped it as a duplicate: the line offers Replay with New Id for this delivery. */
  offerFresh?: boolean;
}

/** Whether deliveries are being received, and where: said in the panel, which outlives the receiver (a window
 * reload restores the panel, not the receiver). */
/** @public media/panel/panel.js names it in its JSDoc types (tsc -p media/panel checks them). */
export interface ReceiverLine {
  running: boolean;
  localUrl?: string;
  publicUrl?: string;
  /** Why there is no public address, when there is none. */
  publicNote?: string;
  /** Forwarded deliveries are answered with the apps' status (wfs.receiver.forwardPassThrough). */
  passThrough?: boolean;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const optional = <T>(v: unknown, check: (x: unknown) => x is T): boolean => v === undefined || check(v);
const isStatus = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 100 && (v as number) <= 599;
/** What the receiver accepts as a response override (Receiver.setResponseOverride). */
const isOverride = (v: unknown): v is number => isStatus(v) && v >= 200;

function parseFilter(v: unknown): DeliveryFilter | undefined {
  if (!isObject(v)) return undefined;
  const f: DeliveryFilter = {};
  if (!optional(v.topic, isString) || !optional(v.text, isString) || !optional(v.status, isStatus)) return undefined;
  if (v.verification !== undefined && v.verification !== 'verified' && v.verification !== 'refused') return undefined;
  if (v.topic !== undefined) f.topic = v.topic as string;
  if (v.text !== undefined) f.text = v.text as string;
  if (v.status !== undefined) f.status = v.status as number;
  if (v.verification !== undefined) f.verification = v.verification as DeliveryFilter['verification'];
  return f;
}

/** The message as a PanelRequest, or a reason it is not one. */
export function parsePanelRequest(m: unknown): PanelRequest | { invalid: string } {
  if (!isObject(m) || !isString(m.type)) return { invalid: 'not a message object with a type' };
  const bad = { invalid: `a malformed "${m.type}" message` };
  switch (m.type) {
    case 'ready': {
      const filter = m.filter === undefined ? undefined : parseFilter(m.filter);
      if ((m.filter !== undefined && !filter) || !optional(m.paused, (x): x is boolean => typeof x === 'boolean'))
        return bad;
      if (m.selectedId !== undefined && m.selectedId !== null && !isString(m.selectedId)) return bad;
      return {
        type: 'ready',
        filter,
        paused: m.paused as boolean | undefined,
        selectedId: m.selectedId as string | null | undefined,
      };
    }
    case 'filter': {
      const filter = parseFilter(m.filter);
      return filter ? { type: 'filter', filter } : bad;
    }
    case 'pause':
      return typeof m.paused === 'boolean' ? { type: 'pause', paused: m.paused } : bad;
    case 'select':
      return isString(m.id) ? { type: 'select', id: m.id } : bad;
    case 'clear':
      return { type: 'clear' };
    case 'start-receiver':
      return { type: 'start-receiver' };
    case 'override':
      return m.status === null || isOverride(m.status) ? { type: 'override', status: m.status as number | null } : bad;
    case 'action':
      if (!PANEL_ACTIONS.includes(m.action as PanelAction) || !optional(m.id, isString)) return bad;
      return { type: 'action', action: m.action as PanelAction, id: m.id as string | undefined };
    default:
      return { invalid: `an unknown message type "${m.type}"` };
  }
}
