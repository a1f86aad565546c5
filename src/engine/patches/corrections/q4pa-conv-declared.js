/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(q4paConvRowFits)$" }] */
function q4paConvRowFits(row, matcher) {
  if (!row) return false;
  const has = (list, id) =>
    String(list ?? '')
      .split('|')
      .includes(String(id));
  return (
    has(row.enum_periode_construction_id, matcher.enum_periode_construction_id) &&
    has(row.enum_methode_application_dpe_log_id, matcher.enum_methode_application_dpe_log_id)
  );
}
