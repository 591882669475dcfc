#ifndef VOICENOTES_CLLAMAGRAMMAR_H
#define VOICENOTES_CLLAMAGRAMMAR_H

#ifdef __cplusplus
extern "C" {
#endif

/// Converts a JSON Schema (UTF-8 JSON text) to a GBNF grammar with llama.cpp's converter.
/// Returns a string to release with vn_grammar_free, or NULL with *error set to a message
/// (also released with vn_grammar_free).
char *vn_json_schema_to_grammar(const char *schema_json, char **error);

/// Releases a string returned by this module.
void vn_grammar_free(char *text);

#ifdef __cplusplus
}
#endif

#endif
