import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../test-support/source-files';

/**
 * The web app's texts are in i18next namespaces (i18n/locales/{zh,en}); a `{ zh, en }` LocalText
 * is for what a definition or the server says (ARCHITECTURE.md "Texts"). A web file may still
 * write one LocalText where a contracts shape asks for it (a field's `label` built on the web, a
 * value typed `LocalText`), but not a table of texts:
 *
 * - `{ zh: { … }, en: { … } }` (or functions per language): a screen's text table;
 * - an object whose every property is a `{ zh, en }` pair: a table by key;
 * - a `{ zh, en }` pair held by a variable that is not declared `LocalText` (`Record<Language, string>`,
 *   `as const`): a text of the screen's own.
 */

const SRC = join(__dirname, '..');

const nameOf = (property: ts.ObjectLiteralElementLike) =>
  ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))
    ? property.name.text
    : undefined;

/** `{ zh: …, en: … }`: the object has both languages as properties. */
function isLanguagePair(node: ts.Node): node is ts.ObjectLiteralExpression {
  if (!ts.isObjectLiteralExpression(node)) return false;
  const names = node.properties.map(nameOf);
  return names.includes('zh') && names.includes('en');
}

/** The expression a value stands for, through `as const`, `satisfies …` and parentheses. */
function outer(node: ts.Node): ts.Node {
  let at = node;
  while (ts.isAsExpression(at.parent) || ts.isSatisfiesExpression(at.parent) || ts.isParenthesizedExpression(at.parent))
    at = at.parent;
  return at;
}

function problem(pair: ts.ObjectLiteralExpression): string | undefined {
  const values = pair.properties.filter(ts.isPropertyAssignment).map((p) => p.initializer);
  if (values.some((v) => ts.isObjectLiteralExpression(v) || ts.isArrowFunction(v) || ts.isFunctionExpression(v)))
    return 'a text table per language';
  const at = outer(pair);
  const holder = at.parent;
  if (ts.isPropertyAssignment(holder) && ts.isObjectLiteralExpression(holder.parent)) {
    const siblings = holder.parent.properties;
    const allPairs = siblings.every((p) => ts.isPropertyAssignment(p) && isLanguagePair(p.initializer));
    if (siblings.length > 1 && allPairs) return 'a table of { zh, en } texts by key';
  }
  const written = values.every((v) => ts.isStringLiteral(v) || ts.isTemplateLiteral(v));
  if (written && ts.isVariableDeclaration(holder) && holder.initializer === at) {
    const declared = holder.type && ts.isTypeReferenceNode(holder.type) ? holder.type.typeName.getText() : undefined;
    if (declared !== 'LocalText') return 'a { zh, en } text held by a variable not declared LocalText';
  }
  return undefined;
}

/** Every text table of one file, as `path:line what`. */
export function textTablesIn(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (isLanguagePair(node)) {
      const what = problem(node);
      if (what) found.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('texts of the web app', () => {
  it('are in i18next namespaces, not in { zh, en } tables of the files', () => {
    const found = sourceFiles(SRC, [join(SRC, 'i18n', 'locales')]).flatMap((path) =>
      textTablesIn(relative(SRC, path), readFileSync(path, 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('tells a text table from a LocalText a contracts shape asks for', () => {
    const tables = textTablesIn(
      'x.tsx',
      [
        "const TEXT = { zh: { title: '标题' }, en: { title: 'Title' } };",
        "const WORDS = { add: { zh: '添加', en: 'Add' }, remove: { zh: '删除', en: 'Remove' } };",
        "const LABEL: Record<Language, string> = { zh: '调试', en: 'Debug' };",
        "const SAID = { zh: '调试', en: 'Debug' } as const;",
        'const COUNT = { zh: (n: number) => `${n} 项`, en: (n: number) => `${n} rows` };',
      ].join('\n'),
    );
    expect(tables.map((t) => t.split(' ')[0])).toEqual([
      'x.tsx:1',
      'x.tsx:2',
      'x.tsx:2',
      'x.tsx:3',
      'x.tsx:4',
      'x.tsx:5',
    ]);
    const fine = textTablesIn(
      'y.tsx',
      [
        "const TENANT_LABEL: LocalText = { zh: '所属租户', en: 'Tenant' };",
        "const field: FieldDef = { kind: 'string', label: { zh: '名称', en: 'Name' } };",
        "const steps = [{ key: 'load', name: { zh: '装载灭菌', en: 'Into a load' } }];",
        'const named = { zh: row.name, en: row.nameEn };',
      ].join('\n'),
    );
    expect(fine).toEqual([]);
  });
});
