// Node's EventEmitter with its events named and their arguments typed: a listener that expects another payload, or
// an event name that does not exist, is a compile error rather than a surprise at run time.
import { EventEmitter } from 'node:events';

/** Each event's name and the arguments it is emitted with. */
type EventArgs<E> = { [K in keyof E]: unknown[] };

type Listener<A extends unknown[]> = (...args: A) => void;

/** Only types: the methods below are EventEmitter's own, so nothing runs between an emit and its listeners. */
export interface TypedEmitter<E extends EventArgs<E>> {
  on<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this;
  once<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this;
  off<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this;
  addListener<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this;
  removeListener<K extends keyof E & string>(event: K, listener: Listener<E[K]>): this;
  emit<K extends keyof E & string>(event: K, ...args: E[K]): boolean;
}

export class TypedEmitter<E extends EventArgs<E>> extends EventEmitter {}
