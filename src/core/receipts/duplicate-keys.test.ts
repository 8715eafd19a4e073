import { describe, expect, it } from "vitest";
import { firstDuplicateKey } from "./duplicate-keys";

describe("firstDuplicateKey", () => {
  it("finds a key an object names twice, with the path to that object", () => {
    expect(firstDuplicateKey('{"total":"0.01","net":"1","total":"2068"}')).toEqual({
      key: "total",
      path: [],
    });
    expect(firstDuplicateKey('{"receipt":{"a":1,"b":{"c":[1,{"d":1,"d":2}]}}}')).toEqual({
      key: "d",
      path: ["receipt", "b", "c", "1"],
    });
    // Escapes are undone before comparing: "\u0074otal" is "total".
    expect(firstDuplicateKey('{"total":"1","\\u0074otal":"2"}')).toEqual({ key: "total", path: [] });
  });

  it("accepts the same key in different objects, and keys that only look alike inside strings", () => {
    expect(firstDuplicateKey('{"a":{"x":1},"b":{"x":1},"c":[{"x":1},{"x":2}]}')).toBeUndefined();
    expect(firstDuplicateKey('{"a":"\\"a\\":1,","b":["a","a"],"c":"{\\"a\\":1}"}')).toBeUndefined();
    expect(firstDuplicateKey("[1,2,3]")).toBeUndefined();
    expect(firstDuplicateKey('{ "a" : 1 , "b" : { } , "c" : [ ] }')).toBeUndefined();
  });
});
