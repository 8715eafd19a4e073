// The two node-forge modules des.ts loads (the package's own types cover only its root module).
declare module "node-forge/lib/des.js" {
  interface ForgeBuffer {
    getBytes(): string;
  }
  interface ForgeCipher {
    update(input: ForgeBuffer): void;
    finish(pad?: () => boolean): boolean;
    output: ForgeBuffer;
  }
  const des: {
    startEncrypting(key: ForgeBuffer, iv: ForgeBuffer, output: null, mode: "CBC"): ForgeCipher;
    startDecrypting(key: ForgeBuffer, iv: ForgeBuffer, output: null, mode: "CBC"): ForgeCipher;
  };
  export default des;
}
declare module "node-forge/lib/util.js" {
  const util: { createBuffer(bytes: string, encoding: "raw"): import("node-forge/lib/des.js").ForgeBuffer };
  export default util;
}
// RC2, which pkcs12.ts needs only to read the certificates of `openssl pkcs12 -legacy` files.
declare module "node-forge/lib/rc2.js" {
  interface Rc2Cipher {
    start(iv: import("node-forge/lib/des.js").ForgeBuffer): void;
    update(input: import("node-forge/lib/des.js").ForgeBuffer): void;
    finish(): boolean;
    output: { getBytes(): string };
  }
  const rc2: {
    createDecryptionCipher(key: import("node-forge/lib/des.js").ForgeBuffer, bits: number): Rc2Cipher;
  };
  export default rc2;
}
