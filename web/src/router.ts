// Hash routes: #/ lobby, #/t/ID table, #/replay/ID[/K] replay, #/rules/GAME rules.
export function go(path: string) { location.hash = "#" + path; }
export function route(): string[] {
  const h = location.hash.replace(/^#\/?/, "");
  return h ? h.split("/").map(decodeURIComponent) : [];
}
