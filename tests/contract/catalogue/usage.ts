// Where the code names a translation key. Source files are read as TypeScript syntax (never
// run), so comments and look-alike text are not taken for keys:
// - a string literal that is a key path whose first part is a catalogue section ('task.confirm.total');
// - a template literal that starts as one (`task.views.${view}`), kept as a pattern 'task.views.*'
//   that the test resolves through its declared list of dynamic keys;
// - a server message named by its bare key: any upper-case literal ('NOT_FOUND'), and the key given to
//   translate(locale, …) and new HttpError(status, error, …), which must exist;
// - a form rule named in rule('too_long', …).
import ts from 'typescript';

export interface Usage {
  /** Full key paths, each with the files naming it. */
  keys: Map<string, Set<string>>;
  /** Patterns of keys built at run time ('task.views.*'), each with its files. */
  patterns: Map<string, Set<string>>;
  /** Upper-case literals anywhere: the bare names of server messages (and much else). */
  bare: Set<string>;
  /** Bare names given where only a server message fits: translate(…, 'X'), new HttpError(…, …, 'X'). */
  messages: Map<string, Set<string>>;
  /** Rules named in rule('…'). */
  rules: Map<string, Set<string>>;
}

const KEY_PATH = /^[A-Za-z]\w*(\.\w+)+$/;
const BARE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

function add(map: Map<string, Set<string>>, key: string, file: string) {
  const files = map.get(key) ?? new Set<string>();
  files.add(file);
  map.set(key, files);
}

function literalText(node: ts.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
}

function calleeName(node: ts.Expression): string | undefined {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  return undefined;
}

/** Every key usage in these files (path → source text); `sections` are the catalogue's top-level names. */
export function scanSources(files: Record<string, string>, sections: ReadonlySet<string>): Usage {
  const usage: Usage = { keys: new Map(), patterns: new Map(), bare: new Set(), messages: new Map(), rules: new Map() };
  const isKeyPath = (text: string) => KEY_PATH.test(text) && sections.has(text.split('.')[0]!);
  for (const [file, source] of Object.entries(files)) {
    const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, kind);
    const visit = (node: ts.Node) => {
      const text = literalText(node);
      if (text !== undefined) {
        if (isKeyPath(text)) add(usage.keys, text, file);
        else if (BARE.test(text)) usage.bare.add(text);
      } else if (ts.isTemplateExpression(node)) {
        const pattern = node.head.text + node.templateSpans.map((span) => `*${span.literal.text}`).join('');
        if (isKeyPath(node.head.text.replace(/\.$/, '.x'))) add(usage.patterns, pattern, file);
      } else if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const name = calleeName(node.expression);
        const args = node.arguments ?? ts.factory.createNodeArray();
        const message = name === 'translate' ? literalText(args[1]) : name === 'HttpError' ? literalText(args[2]) : undefined;
        if (message !== undefined) add(usage.messages, message, file);
        const ruleName = name === 'rule' ? literalText(args[0]) : undefined;
        if (ruleName !== undefined) add(usage.rules, ruleName, file);
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  return usage;
}
