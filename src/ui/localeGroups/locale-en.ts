/** The English texts of the login group (textGroups.ts): a chunk of its own, loaded by texts.ts. */
export default import.meta.glob<Record<string, unknown>>('../../locales/en/{common,errors,login}.json', { eager: true, import: 'default' });
