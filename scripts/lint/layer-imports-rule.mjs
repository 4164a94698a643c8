/**
 * `layers/imports`: the layer rules of the design page (architecture.md §3 and §5.10) as an ESLint
 * rule. The policy itself lives in eslint.config.mjs; this file only knows how to apply it.
 *
 * Why a rule of our own rather than `no-restricted-imports`: that rule matches the literal specifier,
 * so `../../adapters/x` and `@/server/adapters/x` need separate, depth-dependent patterns, and it cannot
 * say "type imports only from these modules". Here every specifier is resolved to a repository path
 * first (the `@/` alias of tsconfig, or relative to the importing file), then matched by glob — the
 * same answer whichever way the import is spelled. Bare specifiers are matched as package names.
 *
 * Policy shape: `{ root, layers: Layer[], client: Client }`; `root` is the repository directory.
 * - Layer `{ name, files, ignores?, forbid: Restriction[] }` applies to files matching `files`.
 * - Restriction `{ paths?, packages?, except?, typesFrom?, message }`: an import whose target matches
 *   `paths` (repository globs, no extension) or `packages` (package-name globs), and not `except`, is
 *   reported — unless it is type-only (erased at build time) and its target matches `typesFrom`
 *   (`true` = any target).
 * - Client `{ files, notClient, isomorphic, message }`: a file is client code when it matches
 *   `files` (and not `notClient`) or starts with 'use client'; client code may import server
 *   modules at run time only from `isomorphic`.
 */
import path from 'node:path';

const EXTENSION = /\.(?:d\.ts|tsx?|mts|cts|jsx?|mjs|cjs)$/;

/** Glob to RegExp: `**` spans directories, `*` stays within one; `dir/**` also matches `dir` itself. */
function globToRegExp(glob) {
  let source = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (char === '*' && glob[index + 1] === '*') {
      const slashAfter = glob[index + 2] === '/';
      const slashBefore = index === 0 || glob[index - 1] === '/';
      if (slashBefore && slashAfter) {
        source += '(?:.*/)?';
        index += 2;
      } else if (slashBefore && index > 0 && index + 2 === glob.length) {
        source = source.slice(0, -1) + '(?:/.*)?';
        index += 1;
      } else {
        source += '.*';
        index += 1;
      }
    } else if (char === '*') source += '[^/]*';
    else source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

const compiled = new Map();
function matches(globs, value) {
  if (!globs || globs.length === 0) return false;
  return globs.some((glob) => {
    if (!compiled.has(glob)) compiled.set(glob, globToRegExp(glob));
    return compiled.get(glob).test(value);
  });
}

/** A specifier as `{ kind: 'path', target }` (repository-relative, no extension) or `{ kind: 'package' }`. */
function resolveTarget(specifier, fileRelative) {
  if (specifier.startsWith('node:')) return undefined;
  let target;
  if (specifier.startsWith('@/')) target = specifier.slice(2);
  else if (specifier.startsWith('.')) target = path.posix.normalize(path.posix.join(path.posix.dirname(fileRelative), specifier));
  else return { kind: 'package', target: specifier };
  if (target.startsWith('..')) return undefined; // outside the repository: not ours to judge
  return { kind: 'path', target: target.replace(EXTENSION, '').replace(/\/index$/, '') };
}

function targetMatches(restriction, resolved) {
  const globs = resolved.kind === 'path' ? restriction.paths : restriction.packages;
  return matches(globs, resolved.target) && !matches(restriction.except, resolved.target);
}

function typesAllowed(restriction, resolved) {
  if (restriction.typesFrom === true) return true;
  return Array.isArray(restriction.typesFrom) && matches(restriction.typesFrom, resolved.target);
}

/** True when TypeScript erases the statement: `import type`, or every named specifier marked `type`. */
function isTypeOnly(node) {
  if (node.type === 'TSImportType') return true;
  if (node.type === 'ImportExpression' || node.type === 'CallExpression') return false;
  const kind = node.type === 'ImportDeclaration' ? node.importKind : node.exportKind;
  if (kind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((specifier) => (specifier.importKind ?? specifier.exportKind) === 'type');
}

function hasUseClientDirective(program) {
  for (const statement of program.body) {
    if (statement.type !== 'ExpressionStatement' || typeof statement.directive !== 'string') break;
    if (statement.directive === 'use client') return true;
  }
  return false;
}

export const layerImportsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the layer boundaries of architecture.md §3/§5.10' },
    schema: [{ type: 'object', additionalProperties: true }],
    messages: { forbidden: '{{layer}}: {{spec}} — {{why}}' },
  },
  create(context) {
    const policy = context.options[0] ?? {};
    const fileRelative = path.relative(policy.root ?? context.cwd, context.filename).split(path.sep).join('/');
    const layers = (policy.layers ?? []).filter((layer) => matches(layer.files, fileRelative) && !matches(layer.ignores, fileRelative));
    const client = policy.client;
    let isClient = false;

    function check(node, specifier) {
      if (typeof specifier !== 'string') return;
      const resolved = resolveTarget(specifier, fileRelative);
      if (!resolved) return;
      const typeOnly = isTypeOnly(node);
      for (const layer of layers) {
        for (const restriction of layer.forbid) {
          if (!targetMatches(restriction, resolved)) continue;
          if (typeOnly && typesAllowed(restriction, resolved)) continue;
          context.report({ node, messageId: 'forbidden', data: { layer: layer.name, spec: specifier, why: restriction.message } });
          return;
        }
      }
      if (isClient && !typeOnly && resolved.kind === 'path' && matches(['server/**', 'db/**'], resolved.target) && !matches(client.isomorphic, resolved.target)) {
        context.report({ node, messageId: 'forbidden', data: { layer: 'client code', spec: specifier, why: client.message } });
      }
    }

    return {
      Program(program) {
        if (!client) return;
        const listed = matches(client.files, fileRelative) && !matches(client.notClient, fileRelative);
        isClient = listed || hasUseClientDirective(program);
      },
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      TSImportType: (node) => {
        const literal = node.argument?.literal ?? node.argument;
        if (literal?.type === 'Literal') check(node, literal.value);
      },
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') check(node, node.arguments[0].value);
      },
    };
  },
};

export const layersPlugin = { meta: { name: 'layers' }, rules: { imports: layerImportsRule } };
