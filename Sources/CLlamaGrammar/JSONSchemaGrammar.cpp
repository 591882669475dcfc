// Exposes llama.cpp's JSON-Schema-to-GBNF converter (common/json-schema-to-grammar) through a C
// function, catching its exceptions so that none crosses into Swift.
#include "CLlamaGrammar.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "json-schema-to-grammar.h"

static char *copy_string(const std::string &text) {
    char *copy = static_cast<char *>(std::malloc(text.size() + 1));
    if (copy) {
        std::memcpy(copy, text.c_str(), text.size() + 1);
    }
    return copy;
}

extern "C" char *vn_json_schema_to_grammar(const char *schema_json, char **error) {
    if (error) {
        *error = nullptr;
    }
    try {
        const common_json schema = common_json::parse(std::string(schema_json));
        return copy_string(json_schema_to_grammar(schema, /* force_gbnf */ true));
    } catch (const std::exception &exception) {
        if (error) {
            *error = copy_string(exception.what());
        }
    } catch (...) {
        if (error) {
            *error = copy_string("unknown error in the JSON Schema converter");
        }
    }
    return nullptr;
}

extern "C" void vn_grammar_free(char *text) { std::free(text); }
