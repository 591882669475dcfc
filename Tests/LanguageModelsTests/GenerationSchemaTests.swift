import Foundation
import Testing

@testable import LanguageModels

@Suite struct GenerationSchemaTests {
  @Test func itinerarySchemaIsTheExpectedJSONSchema() {
    let expected = """
      {
        "type": "object",
        "description": "A travel itinerary",
        "properties": {
          "title": {
            "type": "string",
            "description": "An exciting name for the trip"
          },
          "description": {
            "type": "string",
            "description": "A short description of the trip"
          },
          "rationale": {
            "type": "string",
            "description": "Why this plan suits the traveller"
          },
          "days": {
            "type": "array",
            "description": "One plan per day",
            "items": {
              "$ref": "#/$defs/DayPlan"
            },
            "minItems": 3,
            "maxItems": 3
          }
        },
        "required": ["title", "description", "rationale", "days"],
        "additionalProperties": false,
        "$defs": {
          "DayPlan": {
            "type": "object",
            "description": "The plan for one day",
            "properties": {
              "title": {
                "type": "string",
                "description": "A unique title for the day"
              },
              "activities": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/Activity"
                },
                "minItems": 1,
                "maxItems": 3
              }
            },
            "required": ["title", "activities"],
            "additionalProperties": false
          },
          "Activity": {
            "type": "object",
            "properties": {
              "type": {
                "$ref": "#/$defs/ActivityType",
                "description": "What kind of activity this is"
              },
              "title": {
                "type": "string"
              }
            },
            "required": ["type", "title"],
            "additionalProperties": false
          },
          "ActivityType": {
            "type": "string",
            "description": "The kind of an activity\\nhiking: Walking outdoors",
            "enum": ["hiking", "sightseeing", "dining"]
          }
        }
      }
      """
    #expect(Itinerary.generationSchema.jsonSchema() == expected)
    #expect(Itinerary.generationSchema.unsupportedGuideDescription() == nil)
  }

  @Test func guidesBecomeJSONSchemaKeywords() {
    let expected = """
      {
        "type": "object",
        "properties": {
          "stars": {
            "type": "integer",
            "description": "Stars from one to five",
            "minimum": 1,
            "maximum": 5
          },
          "comment": {
            "type": "string"
          },
          "code": {
            "type": "string",
            "description": "A booking code",
            "pattern": "^[A-Z]{3}-[0-9]{4}$"
          },
          "email": {
            "type": "string",
            "pattern": "^[a-z]+@[a-z]+\\\\.com$"
          },
          "tags": {
            "type": "array",
            "items": {
              "type": "string",
              "enum": ["good", "bad"]
            },
            "minItems": 1,
            "maxItems": 4
          },
          "weight": {
            "type": "number",
            "minimum": 0.5
          }
        },
        "required": ["stars", "code", "email", "tags", "weight"],
        "additionalProperties": false
      }
      """
    #expect(Rating.generationSchema.jsonSchema() == expected)
    #expect(Rating.generationSchema.unsupportedGuideDescription() == nil)
  }

  @Test func enumWithPayloadsIsAUnionOfTaggedObjects() throws {
    let schema = try GeneratedContent(json: Shape.generationSchema.jsonSchema())
    guard case .structure(let properties, let keys) = schema.kind else {
      Issue.record("the schema is not an object")
      return
    }
    #expect(keys == ["anyOf", "$defs"])
    let definitions = try #require(properties["$defs"])
    guard case .structure(let shapes, let names) = definitions.kind else {
      Issue.record("$defs is not an object")
      return
    }
    #expect(names == ["Shape.circle", "Shape.label", "Shape.empty"])
    let label = try #require(shapes["Shape.label"])
    #expect(try label.value([String].self, forProperty: "required") == ["case", "_0"])
  }

  @Test("a property guided by regex literals, as hand-built schemas write it, gets their pattern")
  func regexGuidedProperty() throws {
    let schema = GenerationSchema(
      type: GeneratedContent.self, description: "Ticket",
      properties: [
        .init(name: "code", type: String.self, guides: [/[A-Z]{3}-\d+/]),
        .init(name: "note", type: String?.self, guides: [/[a-z ]+/]),
      ])
    let json = try GeneratedContent(json: schema.jsonSchema())
    let properties = try json.value(GeneratedContent.self, forProperty: "properties")
    let code = try properties.value(GeneratedContent.self, forProperty: "code")
    let pattern = try code.value(String.self, forProperty: "pattern")
    #expect(pattern.contains("[A-Z]{3}") && pattern.contains("[0-9]+"), "\(pattern)")
    let required = try json.value([String].self, forProperty: "required")
    #expect(required == ["code"], "the optional property may be left out: \(required)")
  }

  @Test("Never is Generable, as generic code over Apple's protocol may need; nothing converts to it")
  func neverIsGenerable() {
    func schemaName<T: Generable>(of type: T.Type) -> String { T.generationSchema.jsonSchema() }
    #expect(schemaName(of: Never.self).contains("object"))
    #expect(throws: GeneratedContent.ConversionError.self) { try Never(GeneratedContent("anything")) }
  }

  @Test func promptDescriptionIsCompactJSONSchema() {
    let text = DayPlan.generationSchema.promptDescription()
    #expect(!text.contains("\n"))
    #expect(text.hasPrefix(#"{"type":"object","description":"The plan for one day","properties":{"title""#))
  }

  @Test func schemaSurvivesCodable() throws {
    let data = try JSONEncoder().encode(Itinerary.generationSchema)
    let decoded = try JSONDecoder().decode(GenerationSchema.self, from: data)
    #expect(decoded.jsonSchema() == Itinerary.generationSchema.jsonSchema())
  }

  @Test func unsupportedGuidesAreDescribed() {
    let schema = GenerationSchema(
      type: Rating.self,
      properties: [
        .init(name: "look", type: String.self, guides: [.pattern("(?=a)b")]),
        .init(name: "backref", type: String.self, guides: [.pattern("(a)\\1")]),
        .init(name: "range", type: Int.self, guides: [.minimum(5), .maximum(1)]),
        .init(name: "none", type: String.self, guides: [.anyOf([])]),
      ])
    let description = schema.unsupportedGuideDescription() ?? ""
    #expect(description.contains("Rating.look"))
    #expect(description.contains("lookaround"))
    #expect(description.contains("Rating.backref"))
    #expect(description.contains("the minimum 5 is above the maximum 1"))
    #expect(description.contains(".anyOf has no choices"))
  }

  @Test func patternsAreRewrittenIntoTheEnforceableSubset() {
    #expect(SchemaPattern("^\\d{2}|\\w+$").text == "^(?:[0-9]{2}|[a-zA-Z0-9_]+)$")
    #expect(SchemaPattern("(?<year>[0-9]{4})-x+?").text == "^([0-9]{4})-x+$")
    #expect(SchemaPattern("a\\/b").text == "^a/b$")
    #expect(SchemaPattern("[0-9]+").problem == nil)
    #expect(SchemaPattern("\\bword").problem != nil)
  }

  @Test("stacked @Guide attributes all apply, as in Apple's trip planner sample")
  func stackedGuidesAllApply() throws {
    let schema = try JSONSerialization.jsonObject(with: Data(StackedPlan.generationSchema.jsonSchema().utf8))
    let days = (schema as? [String: Any])?["properties"].flatMap { ($0 as? [String: Any])?["days"] } as? [String: Any]
    #expect(days?["description"] as? String == "A list of day-by-day plans.")
    #expect(days?["minItems"] as? Int == 3 && days?["maxItems"] as? Int == 3, "\(days ?? [:])")
  }

  @Test func optionalPropertiesAreNotRequired() throws {
    let schema = try GeneratedContent(json: Rating.generationSchema.jsonSchema())
    let required = try schema.value([String].self, forProperty: "required")
    #expect(!required.contains("comment"))
    #expect(required.contains("stars"))
  }
}

@Generable
struct StackedPlan {
  @Guide(description: "A list of day-by-day plans.")
  @Guide(.count(3))
  var days: [String]
}
