// Builds the page into dist/: app.js (esbuild: TypeScript + Preact,
// bundled and minified), index.html and style.css copied from src/.
// The output is committed; CI rebuilds it and fails if it changed.
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";

mkdirSync("dist", { recursive: true });
await build({
  entryPoints: ["src/main.tsx"],
  bundle: true,
  minify: true,
  target: "es2020",
  jsx: "automatic",
  jsxImportSource: "preact",
  outfile: "dist/app.js",
  legalComments: "none",
  banner: { js: "// Parlour's page: lobby API and protocol version 1 (docs/protocol.md). Built from web/src by npm run build." },
  logLevel: "warning",
});
for (const f of ["index.html", "style.css"]) copyFileSync("src/" + f, "dist/" + f);
