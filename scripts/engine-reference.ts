import ts from 'typescript';
import type { ApiHelpEntry } from '../src/engine/contract/types';

/**
 * `engine.help()`'s list (issue 24), read from the contract itself (src/engine/api.ts) rather than kept by
 * hand: every line of `ENGINE_API`, then what `TabEngine` adds for the tab alone, each with how it is called,
 * what it answers and its doc comment. Only the syntax is read (no type checker), so the build pays a few
 * milliseconds for it.
 */
export function engineReference(source: string, fileName = 'api.ts'): ApiHelpEntry[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const aliases = new Map<string, ts.TypeNode>();
  let table: ts.ObjectLiteralExpression | null = null;
  let tab: ts.InterfaceDeclaration | null = null;
  for (const statement of file.statements) {
    if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement.type);
    if (ts.isInterfaceDeclaration(statement) && statement.name.text === 'TabEngine') tab = statement;
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (ts.isIdentifier(declaration.name) && declaration.name.text === 'ENGINE_API' && declaration.initializer) {
        table = objectLiteral(declaration.initializer);
      }
    }
  }
  if (!table) throw new Error(`${fileName}: no ENGINE_API object literal`);
  if (!tab) throw new Error(`${fileName}: no TabEngine interface`);

  const entries: ApiHelpEntry[] = [];
  for (const property of table.properties) {
    if (!ts.isPropertyAssignment(property) || !ts.isCallExpression(property.initializer)) {
      throw new Error(`${fileName}: ENGINE_API.${property.name?.getText(file) ?? '?'} is not a query(...) or command(...) line`);
    }
    const name = property.name.getText(file);
    const maker = property.initializer.expression.getText(file);
    const kind = KINDS[maker];
    let type = property.initializer.typeArguments?.[0];
    if (!kind || !type) throw new Error(`${fileName}: ENGINE_API.${name} is made by ${maker}, not by a typed query/event/command/fire`);
    if (ts.isTypeReferenceNode(type)) type = aliases.get(type.typeName.getText(file)) ?? type;
    entries.push({ name, kind, ...callOf(name, type, file), ...docOf(property, file) });
  }
  for (const member of tab.members) {
    const name = member.name?.getText(file) ?? '';
    const parts =
      ts.isMethodSignature(member)
        ? { call: `${name}${paramsOf(member, file)}`, returns: text(member.type, file) }
        : { call: name, returns: ts.isPropertySignature(member) ? text(member.type, file) : '' };
    entries.push({ name, kind: 'tab', ...parts, ...docOf(member, file) });
  }
  return entries;
}

const KINDS: Record<string, ApiHelpEntry['kind']> = { query: 'query', event: 'event', command: 'command', fire: 'void' };

function objectLiteral(expression: ts.Expression): ts.ObjectLiteralExpression | null {
  let node: ts.Expression = expression;
  while (ts.isSatisfiesExpression(node) || ts.isAsExpression(node) || ts.isParenthesizedExpression(node)) node = node.expression;
  return ts.isObjectLiteralExpression(node) ? node : null;
}

function callOf(name: string, type: ts.TypeNode, file: ts.SourceFile): { call: string; returns: string } {
  if (ts.isFunctionTypeNode(type)) {
    const generics = type.typeParameters ? `<${type.typeParameters.map((p) => text(p, file)).join(', ')}>` : '';
    return { call: `${name}${generics}${paramsOf(type, file)}`, returns: text(type.type, file) };
  }
  return { call: name, returns: text(type, file) };
}

function paramsOf(node: ts.SignatureDeclarationBase, file: ts.SourceFile): string {
  return `(${node.parameters.map((p) => text(p, file)).join(', ')})`;
}

/** A node's source on one line. */
function text(node: ts.Node | undefined, file: ts.SourceFile): string {
  return node ? node.getText(file).replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/,? \)/g, ')') : '';
}

function docOf(node: ts.Node, file: ts.SourceFile): { summary: string; doc: string } {
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const doc = docs
    .map((d) => ts.getTextOfJSDocComment(d.comment) ?? '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  void file;
  return { summary: firstSentence(doc), doc };
}

/** Up to the first full stop that ends a sentence (not "e.g.", not "§4.1"), or the whole text. */
export function firstSentence(doc: string): string {
  const end = /(?<!\be\.g|\bi\.e|\betc)\.(?=\s+[A-Z(`'"]|$)/.exec(doc);
  return end ? doc.slice(0, end.index + 1) : doc;
}
