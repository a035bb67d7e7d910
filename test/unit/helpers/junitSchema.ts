// Validates JUnit XML against test/fixtures/junit.xsd with libxml2 (compiled to WebAssembly: no system package).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';

const XSD = readFileSync(join(__dirname, '../../../../test/fixtures/junit.xsd'), 'utf8');

export async function validateJunit(xml: string): Promise<{ valid: boolean; errors: string[] }> {
  const r = await validateXML({
    xml: [{ fileName: 'audit.xml', contents: xml }],
    schema: [{ fileName: 'junit.xsd', contents: XSD }],
  });
  return { valid: r.valid, errors: r.errors.map((e) => e.rawMessage) };
}
