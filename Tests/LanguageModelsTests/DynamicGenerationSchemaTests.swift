import Testing

@testable import LanguageModels

@Suite struct DynamicGenerationSchemaTests {
  private let kind = DynamicGenerationSchema(name: "Kind", anyOf: ["hiking", "museum"])

  @Test func referencesResolveToDefinitions() throws {
    let activity = DynamicGenerationSchema(
      name: "Activity",
      properties: [
        .init(name: "title", schema: .init(type: String.self)),
        .init(name: "kind", schema: .init(referenceTo: "Kind")),
        .init(name: "stars", schema: .init(type: Int.self, guides: [.range(1...5)]), isOptional: true),
      ])
    let day = DynamicGenerationSchema(
      name: "Day", description: "One day",
      properties: [
        .init(name: "activities", schema: .init(arrayOf: .init(referenceTo: "Activity"), minimumElements: 1))
      ])
    let schema = try GenerationSchema(root: day, dependencies: [activity, kind])
    let expected = """
      {"type":"object","description":"One day","properties":{"activities":{"type":"array","items":{"$ref":"#/$defs/Activity"},\
      "minItems":1}},"required":["activities"],"additionalProperties":false,"$defs":{"Activity":{"type":"object","properties":\
      {"title":{"type":"string"},"kind":{"$ref":"#/$defs/Kind"},"stars":{"type":"integer","minimum":1,"maximum":5}},\
      "required":["title","kind"],"additionalProperties":false},"Kind":{"type":"string","enum":["hiking","museum"]}}}
      """
    #expect(schema.promptDescription() == expected)
  }

  @Test func undefinedReferencesThrow() {
    let root = DynamicGenerationSchema(
      name: "Day", properties: [.init(name: "kind", schema: .init(referenceTo: "Sort"))])
    #expect {
      try GenerationSchema(root: root, dependencies: [kind])
    } throws: { error in
      guard case GenerationSchema.SchemaError.undefinedReferences(_, let references, _) = error else { return false }
      return references == ["Sort"]
    }
  }

  @Test func duplicateTypesThrow() {
    let root = DynamicGenerationSchema(name: "Kind", properties: [])
    #expect {
      try GenerationSchema(root: root, dependencies: [kind])
    } throws: { error in
      guard case GenerationSchema.SchemaError.duplicateType(_, let type, _) = error else { return false }
      return type == "Kind"
    }
  }

  @Test func duplicatePropertiesThrow() {
    let root = DynamicGenerationSchema(
      name: "Day",
      properties: [.init(name: "a", schema: .init(type: String.self)), .init(name: "a", schema: .init(type: Int.self))])
    #expect {
      try GenerationSchema(root: root, dependencies: [])
    } throws: { error in
      guard case GenerationSchema.SchemaError.duplicateProperty(let schema, let property, _) = error else {
        return false
      }
      return schema == "Day" && property == "a"
    }
  }

  @Test func emptyChoicesThrowWithAnActionableMessage() throws {
    let root = DynamicGenerationSchema(name: "Nothing", anyOf: [String]())
    let error = try #require(throws: GenerationSchema.SchemaError.self) {
      try GenerationSchema(root: root, dependencies: [])
    }
    #expect(error.errorDescription == "The schema Nothing has no choices.")
    #expect(error.recoverySuggestion != nil)
  }
}
