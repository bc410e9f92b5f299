/** The Swedish texts of the app group (textGroups.ts: every area but the login group's), a chunk of its own. */
export default import.meta.glob<Record<string, unknown>>(['../../locales/sv/*.json', '!../../locales/sv/{common,errors,login}.json'], {
  eager: true,
  import: 'default',
});
