import { checkLayers } from './layer-rules.ts';

/** `npm run lint`: SQL only in data-access/, domain/ free of ORM runtime imports (see scripts/layer-rules.ts). */
const problems = checkLayers(process.cwd());
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`\n${problems.length} layer violation(s); see docs/contributing.md, "Layers".`);
  process.exit(1);
}
console.log('layers: no SQL outside data-access/, no ORM runtime import in domain/, no cast of a handler input');
