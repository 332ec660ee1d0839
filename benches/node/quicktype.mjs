// quicktype-core as both TypeScript peer runs call it (codegen.mjs, coverage-peers.mjs):
// one JSON Schema text in, TypeScript types out (`just-types`, no run-time helpers).

import {
  FetchingJSONSchemaStore,
  InputData,
  JSONSchemaInput,
  quicktype,
} from "quicktype-core";

export async function quicktypeTypeScript(text, name) {
  const input = new JSONSchemaInput(new FetchingJSONSchemaStore());
  await input.addSource({ name, schema: text });
  const inputData = new InputData();
  inputData.addInput(input);
  const result = await quicktype({
    inputData,
    lang: "typescript",
    rendererOptions: { "just-types": "true" },
  });
  return result.lines.join("\n");
}
