import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Finds every text the server's code can send a client, by reading its source (TypeScript's own parser
 * and checker): the message of every ApiError it makes (badRequest, forbidden, … in server/http/errors.ts,
 * `new ApiError`), of every FormTooLargeError, and every text the error handler sends (`failure`).
 *
 * An argument is followed to its texts: a string, a template (its values become `{}`: "At most {} members
 * can be added at a time"), each side of `a ? b : c` and `a ?? b`, a constant (in the file or imported),
 * and a parameter: a function that passes one of its parameters on to a message is itself followed, at
 * every place it is called (requireGroup, requireAdmin, requireVisibleMessage, setReaction, …), with the
 * parameter's default too. Whatever cannot be followed this way must be one of INDIRECTIONS below, which
 * say where its texts are collected instead; anything else fails the scan, so a new way of making a
 * message is noticed, not missed.
 */

export const SERVER_DIR = path.resolve(import.meta.dirname, '../../server');

export interface FoundText {
  /** The English text; a template's values as `{}`. */
  text: string;
  /** Where it is made, `server/…:line`. */
  where: string;
}

export interface ScanResult {
  texts: FoundText[];
  /** Arguments the scan could not follow and no indirection names: each a failure. */
  unexplained: string[];
  /** Indirections that were never met: stale, to be removed. */
  unused: string[];
}

/** The functions and classes whose argument at this index is a message sent to a client. */
const SINKS: { file: string; name: string; index: number }[] = [
  ...['badRequest', 'unauthorized', 'forbidden', 'notFound', 'tooLarge', 'unsupportedType', 'tooManyRequests'].map(
    (name) => ({ file: 'http/errors.ts', name, index: 0 }),
  ),
  { file: 'http/errors.ts', name: 'ApiError', index: 1 },
  { file: 'http/form.ts', name: 'FormTooLargeError', index: 0 },
  { file: 'http/errorHandler.ts', name: 'failure', index: 2 },
];

interface Indirection {
  file: string;
  /** The argument's source text. */
  expression: string;
  /** Why it needs no following, or where its texts come from (collected by `collect`). */
  why: string;
  collect?: (scan: Collector) => void;
}

/**
 * Messages that reach a sink through a value the scan cannot follow by itself; each says where its
 * texts are collected instead.
 */
const INDIRECTIONS: Indirection[] = [
  {
    file: 'files/store.ts',
    expression: 'rules.tooLargeMessage',
    why: 'the upload rules of each route: every `tooLargeMessage:` in the server',
    collect: (scan) => scan.propertyValues('tooLargeMessage'),
  },
  {
    file: 'files/store.ts',
    expression: 'rules.wrongTypeMessage',
    why: 'the upload rules of each route: every `wrongTypeMessage:` in the server',
    collect: (scan) => scan.propertyValues('wrongTypeMessage'),
  },
  {
    file: 'domain/message-delete.ts',
    expression: 'refusal.reason',
    why: "a refusal of the batch: the file's reason constants (also sent as `warnings[].reason`)",
    collect: (scan) => scan.moduleConstants('domain/message-delete.ts'),
  },
  {
    file: 'app.ts',
    expression: 'message',
    why: "the form parser's refusal: a FormTooLargeError's message (a sink itself) or the literal beside it",
    collect: (scan) => scan.variableInitializer('app.ts', 'message', { skip: 'error.message' }),
  },
  {
    file: 'http/errorHandler.ts',
    expression: 'error.message',
    why: 'an ApiError (its texts are collected where it is made)',
  },
  {
    file: 'http/errorHandler.ts',
    expression: 'frameworkMessage(error)',
    why: "Fastify's own 4xx: the FRAMEWORK_MESSAGES table, or Fastify's text (sent in Swedish as a generic sentence)",
    collect: (scan) => scan.objectValues('http/errorHandler.ts', 'FRAMEWORK_MESSAGES'),
  },
  {
    file: 'http/errorHandler.ts',
    expression: 'validationMessage(error)',
    why: "a schema refusal: built in each language from AJV's keyword by validationMessage (tested apart)",
  },
];

type Callable = ts.SignatureDeclaration | ts.ClassDeclaration;

export class Collector {
  private readonly program: ts.Program;
  private readonly checker: ts.TypeChecker;
  private readonly files: ts.SourceFile[];
  private readonly found: FoundText[] = [];
  private readonly unexplained: string[] = [];
  private readonly usedIndirections = new Set<Indirection>();
  /** Callables (sinks, then forwarders found on the way) and the parameter indexes that are messages. */
  private readonly targets = new Map<ts.Node, Set<number>>();

  constructor() {
    const files = listTs(SERVER_DIR);
    this.program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    });
    this.checker = this.program.getTypeChecker();
    this.files = files.map((f) => this.program.getSourceFile(f)).filter((f): f is ts.SourceFile => f !== undefined);
  }

  scan(): ScanResult {
    for (const sink of SINKS) {
      const declaration = this.declarationIn(sink.file, sink.name);
      if (!declaration) throw new Error(`the sink ${sink.name} is not declared in server/${sink.file}`);
      this.addTarget(declaration, sink.index);
    }
    // Following a parameter adds a callable to follow, whose calls may already have been seen: repeat
    // until nothing new is found.
    let size = -1;
    while (size !== this.targetCount()) {
      size = this.targetCount();
      this.found.length = 0;
      this.unexplained.length = 0;
      this.usedIndirections.clear();
      for (const file of this.files) this.visit(file);
    }
    for (const indirection of this.usedIndirections) indirection.collect?.(this);
    const unused = INDIRECTIONS.filter((i) => !this.usedIndirections.has(i)).map((i) => `${i.file}: ${i.expression}`);
    return { texts: dedupe(this.found), unexplained: [...new Set(this.unexplained)], unused };
  }

  // ---- collections named by the indirections

  /** Every `name: value` in an object literal of the server. */
  propertyValues(name: string): void {
    for (const file of this.files) {
      walk(file, (node) => {
        if (ts.isPropertyAssignment(node) && node.name.getText() === name) this.texts(node.initializer);
      });
    }
  }

  /** Every module-level string constant of a file. */
  moduleConstants(file: string): void {
    for (const statement of this.file(file).statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const d of statement.declarationList.declarations) {
        if (d.initializer && (ts.isStringLiteral(d.initializer) || ts.isNoSubstitutionTemplateLiteral(d.initializer))) {
          this.texts(d.initializer);
        }
      }
    }
  }

  /** The values of a module-level object literal. */
  objectValues(file: string, name: string): void {
    const declaration = this.declarationIn(file, name);
    if (!declaration || !ts.isVariableDeclaration(declaration) || !declaration.initializer) {
      throw new Error(`no object ${name} in server/${file}`);
    }
    const object = unwrap(declaration.initializer);
    if (!ts.isObjectLiteralExpression(object)) throw new Error(`${name} in server/${file} is not an object literal`);
    for (const property of object.properties) {
      if (ts.isPropertyAssignment(property)) this.texts(property.initializer);
    }
  }

  /** The initializer of every variable of this name in a file, but for the part given as `skip`. */
  variableInitializer(file: string, name: string, options: { skip: string }): void {
    walk(this.file(file), (node) => {
      if (ts.isVariableDeclaration(node) && node.name.getText() === name && node.initializer) {
        this.texts(node.initializer, options.skip);
      }
    });
  }

  // ---- the walk

  private targetCount(): number {
    let n = 0;
    for (const set of this.targets.values()) n += set.size;
    return n;
  }

  private addTarget(callable: ts.Node, index: number): void {
    const set = this.targets.get(callable) ?? new Set<number>();
    set.add(index);
    this.targets.set(callable, set);
  }

  private visit(file: ts.SourceFile): void {
    walk(file, (node) => {
      if (!ts.isCallExpression(node) && !ts.isNewExpression(node)) return;
      const callable = this.callableOf(node.expression);
      const indexes = callable && this.targets.get(callable);
      if (!indexes) return;
      for (const index of indexes) {
        const argument = node.arguments?.[index];
        if (argument) this.message(argument);
      }
    });
  }

  /** A sink's argument: its texts, or an explained indirection, or a failure. */
  private message(expression: ts.Expression): void {
    this.texts(expression);
  }

  /** Collects the texts an expression can be; what it cannot follow is checked against INDIRECTIONS. */
  private texts(node: ts.Expression, skip?: string): void {
    const e = unwrap(node);
    if (skip !== undefined && e.getText() === skip) return;
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return this.add(e.text, e);
    if (ts.isTemplateExpression(e)) {
      return this.add(e.head.text + e.templateSpans.map((s) => `{}${s.literal.text}`).join(''), e);
    }
    if (ts.isConditionalExpression(e)) {
      this.texts(e.whenTrue, skip);
      return this.texts(e.whenFalse, skip);
    }
    if (
      ts.isBinaryExpression(e) &&
      (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || e.operatorToken.kind === ts.SyntaxKind.BarBarToken)
    ) {
      this.texts(e.left, skip);
      return this.texts(e.right, skip);
    }
    if (ts.isIdentifier(e)) {
      const declaration = this.declarationOf(e);
      if (declaration && ts.isParameter(declaration) && isCallable(declaration.parent)) {
        const callable = declaration.parent;
        // A parameter is followed to the calls of its function, which needs a name to be called by.
        if (nameOf(callable) !== null) {
          this.addTarget(callable, callable.parameters.indexOf(declaration));
          if (declaration.initializer) this.texts(declaration.initializer, skip);
          return;
        }
      }
      if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer && isConst(declaration)) {
        // A local made from something the scan cannot follow is judged by its own name, below.
        if (this.followable(declaration.initializer)) return this.texts(declaration.initializer, skip);
      }
    }
    this.unfollowable(e);
  }

  /** Whether every part of an expression can be followed without help. */
  private followable(node: ts.Expression): boolean {
    const e = unwrap(node);
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || ts.isTemplateExpression(e)) return true;
    if (ts.isConditionalExpression(e)) return this.followable(e.whenTrue) && this.followable(e.whenFalse);
    if (ts.isBinaryExpression(e)) return this.followable(e.left) && this.followable(e.right);
    if (ts.isIdentifier(e)) {
      const d = this.declarationOf(e);
      if (d && ts.isParameter(d)) return isCallable(d.parent) && nameOf(d.parent) !== null;
      return !!d && ts.isVariableDeclaration(d) && !!d.initializer && isConst(d) && this.followable(d.initializer);
    }
    return false;
  }

  private unfollowable(e: ts.Expression): void {
    const file = relative(e.getSourceFile());
    const indirection = INDIRECTIONS.find((i) => i.file === file && i.expression === e.getText());
    if (indirection) this.usedIndirections.add(indirection);
    else this.unexplained.push(`${where(e)}: ${e.getText()}`);
  }

  private add(text: string, node: ts.Node): void {
    this.found.push({ text, where: where(node) });
  }

  // ---- symbols

  private file(file: string): ts.SourceFile {
    const source = this.files.find((f) => relative(f) === file);
    if (!source) throw new Error(`no server/${file}`);
    return source;
  }

  private declarationIn(file: string, name: string): ts.Node | undefined {
    let found: ts.Node | undefined;
    walk(this.file(file), (node) => {
      if (found) return;
      if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && node.name?.text === name) found = node;
      if (ts.isVariableDeclaration(node) && node.name.getText() === name) {
        found = node.initializer && isCallable(unwrap(node.initializer)) ? unwrap(node.initializer) : node;
      }
    });
    return found;
  }

  private declarationOf(identifier: ts.Identifier): ts.Declaration | undefined {
    let symbol = this.checker.getSymbolAtLocation(identifier);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    return symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  }

  /** The function or class a call or `new` reaches (an arrow function stands for its variable). */
  private callableOf(callee: ts.Expression): ts.Node | undefined {
    const e = unwrap(callee);
    const identifier = ts.isIdentifier(e) ? e : ts.isPropertyAccessExpression(e) ? e.name : undefined;
    if (!identifier || !ts.isIdentifier(identifier)) return undefined;
    const declaration = this.declarationOf(identifier);
    if (!declaration) return undefined;
    if (ts.isVariableDeclaration(declaration) && declaration.initializer) {
      const init = unwrap(declaration.initializer);
      return isCallable(init) ? init : undefined;
    }
    return declaration;
  }
}

// ---- helpers

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

function unwrap(node: ts.Expression): ts.Expression {
  let e = node;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e) || ts.isSatisfiesExpression(e)) {
    e = e.expression;
  }
  return e;
}

function isCallable(node: ts.Node): node is Callable {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isClassDeclaration(node)
  );
}

/** The name a callable is called by: its own, or the variable an arrow function is assigned to. */
function nameOf(callable: ts.Node): string | null {
  if ((ts.isFunctionDeclaration(callable) || ts.isMethodDeclaration(callable)) && callable.name) return callable.name.getText();
  if (ts.isConstructorDeclaration(callable)) return callable.parent.name?.text ?? null;
  if ((ts.isArrowFunction(callable) || ts.isFunctionExpression(callable)) && ts.isVariableDeclaration(callable.parent)) {
    return callable.parent.name.getText();
  }
  return null;
}

function isConst(declaration: ts.VariableDeclaration): boolean {
  return ts.isVariableDeclarationList(declaration.parent) && (declaration.parent.flags & ts.NodeFlags.Const) !== 0;
}

function relative(file: ts.SourceFile): string {
  return path.relative(SERVER_DIR, file.fileName).split(path.sep).join('/');
}

function where(node: ts.Node): string {
  const file = node.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(node.getStart());
  return `server/${relative(file)}:${line + 1}`;
}

function dedupe(found: FoundText[]): FoundText[] {
  const seen = new Map<string, FoundText>();
  for (const f of found) if (!seen.has(f.text)) seen.set(f.text, f);
  return [...seen.values()];
}

/** Scans server/ once. */
export function scanServerTexts(): ScanResult {
  return new Collector().scan();
}
