// A quick pick of known values that also takes typed text: the typed value is offered as the first item
// when it is not one of the list. Used for session ids and "Service / Model" products.
import * as vscode from 'vscode';

export interface PickOrTypeItem<T> extends vscode.QuickPickItem {
  value: T;
}

export async function pickOrType<T>(o: {
  title: string;
  placeholder: string;
  items: PickOrTypeItem<T>[];
  /** The item for typed text, or undefined when the text is not a value yet. */
  fromText: (text: string) => PickOrTypeItem<T> | undefined;
  /** Whether typed text equal to a listed label but for case counts as that item (products: yes; ids: no). */
  ignoreCase?: boolean;
}): Promise<T | undefined> {
  const same = (a: string, b: string) => (o.ignoreCase ? a.toLowerCase() === b.toLowerCase() : a === b);
  const qp = vscode.window.createQuickPick<PickOrTypeItem<T>>();
  qp.title = o.title;
  qp.placeholder = o.placeholder;
  qp.ignoreFocusOut = true;
  qp.items = o.items;
  qp.onDidChangeValue((v) => {
    const typed = o.fromText(v);
    qp.items = typed && !o.items.some((i) => same(i.label, typed.label)) ? [typed, ...o.items] : o.items;
  });
  const chosen = await new Promise<T | undefined>((resolve) => {
    qp.onDidAccept(() => resolve(qp.selectedItems[0]?.value ?? o.fromText(qp.value)?.value));
    qp.onDidHide(() => resolve(undefined));
    qp.show();
  });
  qp.dispose();
  return chosen;
}
