/** gh api's field forms assembled into one body (src/jsonFields.ts): nesting, lists, and the keys refused. */
import { describe, expect, it } from "vitest";
import { CliError } from "../../src/errors.js";
import { addField, fieldObject, queryParameters, type FieldValue } from "../../src/jsonFields.js";

function assemble(fields: Array<[string, FieldValue | undefined]>) {
  const body = fieldObject();
  for (const [key, value] of fields) addField(body, key, value, "-F");
  return JSON.parse(JSON.stringify(body)) as unknown;
}

function refusal(fields: Array<[string, FieldValue | undefined]>): CliError {
  try {
    assemble(fields);
  } catch (error) {
    return error as CliError;
  }
  throw new Error("not refused");
}

describe("addField", () => {
  it("nests key[sub] and keeps the values' types", () => {
    expect(
      assemble([
        ["imageId", 1002],
        ["quantity[1]", 150],
        ["quantity[3]", 180.5],
        ["salt[1]", "low"],
      ]),
    ).toEqual({ imageId: 1002, quantity: { "1": 150, "3": 180.5 }, salt: { "1": "low" } });
  });

  it("appends key[]=value to a list, makes key[] alone an empty list, and nests lists and objects deeper", () => {
    expect(
      assemble([
        ["tag[]", "a"],
        ["tag[]", "b"],
        ["none[]", undefined],
        ["a[b][c]", true],
        ["a[b][list][]", null],
      ]),
    ).toEqual({ tag: ["a", "b"], none: [], a: { b: { c: true, list: [null] } } });
  });

  it("keeps __proto__ as a key like any other", () => {
    const body = fieldObject();
    addField(body, "__proto__[x]", 1, "-F");
    expect(JSON.stringify(body)).toBe('{"__proto__":{"x":1}}');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it.each([
    [[["a[", 1]], '-F: "a[" is not a field name'],
    [[["a[b]c", 1]], '-F: "a[b]c" is not a field name'],
    [[["a]", 1]], '-F: "a]" is not a field name'],
    [[["[a]", 1]], '-F: "[a]" is not a field name'],
    [[["a[][b]", 1]], '-F: "a[][b]" is not a field name'],
    [[["a[[b]]", 1]], '-F: "a[[b]]" is not a field name'],
    [
      [
        ["quantity", 150],
        ["quantity[1]", 150],
      ],
      '-F: "quantity" is given both as a value and as an object',
    ],
    [
      [
        ["quantity[1]", 150],
        ["quantity", 150],
      ],
      '-F: "quantity" is given both as an object and as a value',
    ],
    [
      [
        ["a[b]", 1],
        ["a[b][c]", 1],
      ],
      '-F: "a[b]" is given both as a value and as an object',
    ],
    [
      [
        ["tag", "x"],
        ["tag[]", "y"],
      ],
      '-F: "tag" is given both as a value and as a list',
    ],
    [
      [
        ["tag[]", "x"],
        ["tag", "y"],
      ],
      '-F: "tag" is given both as a list and as a value',
    ],
    [
      [
        ["quantity[1]", 150],
        ["quantity[1]", 160],
      ],
      '-F: the field "quantity[1]" is given twice',
    ],
    [[["a", undefined]], '-F takes key=value, got "a"'],
  ] as Array<[Array<[string, FieldValue | undefined]>, string]>)("refuses %j with a usage error (exit 2)", (fields, message) => {
    const error = refusal(fields);
    expect(error).toBeInstanceOf(CliError);
    expect(error.exitCode).toBe(2);
    expect(error.message.startsWith(message)).toBe(true);
  });
});

describe("queryParameters", () => {
  it("writes nested keys in brackets, repeats a list's key, and writes null as empty", () => {
    const body = fieldObject();
    for (const [key, value] of [
      ["quantity[1]", 150],
      ["tag[]", "a"],
      ["tag[]", "b"],
      ["z", null],
    ] as const)
      addField(body, key, value, "-f");
    expect(queryParameters(body)).toEqual([
      ["quantity[1]", "150"],
      ["tag", "a"],
      ["tag", "b"],
      ["z", ""],
    ]);
  });
});
