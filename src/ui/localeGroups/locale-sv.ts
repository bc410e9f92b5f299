/** The Swedish texts of the login group (textGroups.ts): a chunk of its own, loaded by texts.ts. */
export default import.meta.glob<Record<string, unknown>>('../../locales/sv/{common,errors,login}.json', { eager: true, import: 'default' });
