declare module 'stopword' {
  const lists: Record<string, string[]>;
  export default lists;
}

// The ES module build (the lists as named exports, ISO 639-3 codes), which src/text/stopwords.ts loads.
declare module 'stopword/dist/stopword.esm.min.mjs' {
  export const eng: string[];
  export const fas: string[];
  export const rus: string[];
  export const ukr: string[];
}
