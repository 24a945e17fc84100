declare module 'stopword' {
  const lists: Record<string, string[]>;
  export default lists;
}
