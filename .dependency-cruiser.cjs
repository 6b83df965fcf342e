// The import rules of the code base (ARCHITECTURE.md "Layers and arrows", "No cycles"), checked by
// `npm run lint:deps`, part of `npm run lint` (and so of CI). Type-only imports count: a loop of
// types is still a loop to read, and a layer named in a type is still a layer depended on.

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment:
        'An import cycle (type-only ones too): no file of the loop can be read, tested or moved alone. ' +
        'Move what both sides need into a leaf file that imports neither (ARCHITECTURE.md "No cycles").',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-imports-no-module',
      severity: 'error',
      comment:
        'The resource engine (src/engine) and the platform (src/platform) never import a module (src/modules): ' +
        'modules build on them. Pass what the engine needs in (a hook, a binding, a registry entry).',
      from: { path: '^apps/server/src/(engine|platform)/' },
      to: { path: '^apps/server/src/modules/' },
    },
    {
      name: 'engine-reaches-no-module',
      severity: 'error',
      comment:
        'Not through a root file either: the engine and the platform reach no module by any chain of imports ' +
        '(AppContext names the platform shape `LogWriters`, not the log module).',
      from: { path: '^apps/server/src/(engine|platform)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/server/src/modules/', reachable: true },
    },
    {
      name: 'contracts-import-no-app',
      severity: 'error',
      comment: 'packages/contracts is shared by the server and the browser: it imports neither app.',
      from: { path: '^packages/contracts/' },
      to: { path: '^(apps|e2e|bench)/' },
    },
    {
      name: 'web-imports-no-server',
      severity: 'error',
      comment: 'The web app talks to the server over HTTP; what both need lives in packages/contracts.',
      from: { path: '^apps/web/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'server-imports-no-web',
      severity: 'error',
      comment: 'The server serves the built web app as files; it imports none of its code.',
      from: { path: '^apps/server/' },
      to: { path: '^apps/web/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '/dist/' },
    // Type-only imports are dependencies too (see above).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    // `@mes/contracts` resolves through its package's `exports` to packages/contracts/src.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
