/** The English texts of the app group (textGroups.ts: every area but the login group's), a chunk of its own. */
export default import.meta.glob<Record<string, unknown>>(['../../locales/en/*.json', '!../../locales/en/{common,errors,login}.json'], {
  eager: true,
  import: 'default',
});
