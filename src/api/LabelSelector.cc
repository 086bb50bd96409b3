#include "src/api/LabelSelector.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

#include "src/base/QuoteForMessage.h"

namespace kube {
namespace {

using Operator = LabelSelector::Operator;
using Requirement = LabelSelector::Requirement;

constexpr size_t kMaxNameLength = 63;
constexpr size_t kMaxPrefixLength = 253;

// ---- Label key and value syntax (k8s.io/apimachinery validation) ----

bool IsAsciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool IsNameChar(char c) { return IsAsciiAlnum(c) || c == '-' || c == '_' || c == '.'; }

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool IsDnsLabelChar(char c) { return IsLowerAlnum(c) || c == '-'; }

// Names and non-empty values share one syntax; nullopt when valid.
std::optional<std::string> NameSyntaxProblem(std::string_view name) {
  if (name.size() > kMaxNameLength) return "must be no more than 63 characters";
  if (!IsAsciiAlnum(name.front()) || !IsAsciiAlnum(name.back())) {
    return "must start and end with an alphanumeric character";
  }
  if (!std::all_of(name.begin(), name.end(), IsNameChar)) {
    return "must consist of alphanumeric characters, '-', '_' or '.'";
  }
  return std::nullopt;
}

bool IsDnsLabel(std::string_view label) {
  return !label.empty() && IsLowerAlnum(label.front()) && IsLowerAlnum(label.back()) &&
         std::all_of(label.begin(), label.end(), IsDnsLabelChar);
}

bool IsDnsSubdomain(std::string_view name) {
  if (name.size() > kMaxPrefixLength) return false;
  while (true) {
    size_t dot = name.find('.');
    if (!IsDnsLabel(name.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    name.remove_prefix(dot + 1);
  }
}

std::optional<std::string> LabelKeyProblem(std::string_view key) {
  std::string_view name = key;
  size_t slash = key.find('/');
  if (slash != std::string_view::npos) {
    if (key.find('/', slash + 1) != std::string_view::npos) return "must contain at most one '/'";
    std::string_view prefix = key.substr(0, slash);
    if (prefix.empty()) return "prefix part before '/' must not be empty";
    if (!IsDnsSubdomain(prefix)) {
      return "prefix part must be a lowercase DNS subdomain of at most 253 characters "
             "(e.g. 'example.com')";
    }
    name = key.substr(slash + 1);
  }
  if (name.empty()) return "name part must not be empty";
  if (auto problem = NameSyntaxProblem(name)) return "name part " + *problem;
  return std::nullopt;
}

std::optional<std::string> LabelValueProblem(std::string_view value) {
  if (value.empty()) return std::nullopt;
  return NameSyntaxProblem(value);
}

// Like Go's strconv.ParseInt(text, 10, 64): optional sign, decimal digits.
std::optional<int64_t> ParseInt64(std::string_view text) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '-') text.remove_prefix(1);
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// ---- Requirements ----

bool HasValue(const Requirement& requirement, const std::string& value) {
  return std::binary_search(requirement.values.begin(), requirement.values.end(), value);
}

bool CompareAsIntegers(const Requirement& requirement, const std::string& label_value) {
  std::optional<int64_t> actual = ParseInt64(label_value);
  std::optional<int64_t> bound = ParseInt64(requirement.values.front());
  if (!actual || !bound) return false;
  return requirement.op == Operator::kGreaterThan ? *actual > *bound : *actual < *bound;
}

bool RequirementMatches(const Requirement& requirement,
                        const std::map<std::string, std::string>& labels) {
  auto label = labels.find(requirement.key);
  bool present = label != labels.end();
  switch (requirement.op) {
    case Operator::kEquals:
    case Operator::kIn:
      return present && HasValue(requirement, label->second);
    case Operator::kNotEquals:
    case Operator::kNotIn:
      return !present || !HasValue(requirement, label->second);
    case Operator::kExists:
      return present;
    case Operator::kDoesNotExist:
      return !present;
    case Operator::kGreaterThan:
    case Operator::kLessThan:
      return present && CompareAsIntegers(requirement, label->second);
  }
  return false;
}

std::string JoinValues(const std::vector<std::string>& values) {
  std::string joined;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) joined += ',';
    joined += values[i];
  }
  return joined;
}

std::string RequirementToString(const Requirement& requirement) {
  const std::string& key = requirement.key;
  switch (requirement.op) {
    case Operator::kEquals:
      return key + "=" + requirement.values.front();
    case Operator::kNotEquals:
      return key + "!=" + requirement.values.front();
    case Operator::kIn:
      return key + " in (" + JoinValues(requirement.values) + ")";
    case Operator::kNotIn:
      return key + " notin (" + JoinValues(requirement.values) + ")";
    case Operator::kExists:
      return key;
    case Operator::kDoesNotExist:
      return "!" + key;
    case Operator::kGreaterThan:
      return key + ">" + requirement.values.front();
    case Operator::kLessThan:
      return key + "<" + requirement.values.front();
  }
  return key;
}

void SortUnique(std::vector<std::string>& values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

// ---- String form: tokens ----

enum class TokenKind {
  kIdentifier,  // keys, values, and the keywords "in" / "notin"
  kComma,
  kOpenParen,
  kCloseParen,
  kBang,
  kEquals,
  kDoubleEquals,
  kNotEquals,
  kGreater,
  kLess,
  kEnd,
};

struct Token {
  TokenKind kind;
  std::string_view text;
  size_t offset;
};

bool IsSelectorWhitespace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool IsSymbol(char c) {
  return c == ',' || c == '(' || c == ')' || c == '!' || c == '=' || c == '>' || c == '<';
}

TokenKind SymbolKind(std::string_view symbol) {
  if (symbol == "==") return TokenKind::kDoubleEquals;
  if (symbol == "!=") return TokenKind::kNotEquals;
  switch (symbol[0]) {
    case ',':
      return TokenKind::kComma;
    case '(':
      return TokenKind::kOpenParen;
    case ')':
      return TokenKind::kCloseParen;
    case '!':
      return TokenKind::kBang;
    case '=':
      return TokenKind::kEquals;
    case '>':
      return TokenKind::kGreater;
    default:
      return TokenKind::kLess;
  }
}

Token NextSymbol(std::string_view text, size_t pos) {
  std::string_view two = text.substr(pos, 2);
  size_t length = (two == "==" || two == "!=") ? 2 : 1;
  std::string_view symbol = text.substr(pos, length);
  return Token{SymbolKind(symbol), symbol, pos};
}

// Identifiers run until whitespace or a symbol, as in Kubernetes' lexer.
Token NextIdentifier(std::string_view text, size_t pos) {
  size_t end = pos;
  while (end < text.size() && !IsSelectorWhitespace(text[end]) && !IsSymbol(text[end])) ++end;
  return Token{TokenKind::kIdentifier, text.substr(pos, end - pos), pos};
}

std::vector<Token> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t pos = 0;
  while (true) {
    while (pos < text.size() && IsSelectorWhitespace(text[pos])) ++pos;
    if (pos == text.size()) break;
    tokens.push_back(IsSymbol(text[pos]) ? NextSymbol(text, pos) : NextIdentifier(text, pos));
    pos += tokens.back().text.size();
  }
  tokens.push_back(Token{TokenKind::kEnd, "", text.size()});
  return tokens;
}

// ---- String form: grammar ----
//   selector    := "" | requirement ("," requirement)*
//   requirement := "!" key | key | key ("=" | "==" | "!=" | ">" | "<") [value]
//                | key ("in" | "notin") "(" [value] ("," [value])* ")"

struct Cursor {
  std::string_view input;
  std::vector<Token> tokens;
  size_t next = 0;

  const Token& Peek() const { return tokens[next]; }
  const Token& Take() {
    const Token& token = tokens[next];
    if (token.kind != TokenKind::kEnd) ++next;
    return token;
  }
  bool AtRequirementEnd() const {
    return Peek().kind == TokenKind::kComma || Peek().kind == TokenKind::kEnd;
  }
};

std::string Describe(const Token& token) {
  return token.kind == TokenKind::kEnd ? "end of string" : QuoteForMessage(token.text);
}

Status ErrorAt(const Cursor& cursor, size_t offset, const std::string& problem) {
  return Status(StatusCode::kParseError, "invalid label selector " + QuoteForMessage(cursor.input) +
                                             ": at offset " + std::to_string(offset) + ": " +
                                             problem);
}

Status Unexpected(const Cursor& cursor, const Token& found, std::string_view expected) {
  return ErrorAt(cursor, found.offset,
                 "expected " + std::string(expected) + ", found " + Describe(found));
}

Result<std::string> ParseKey(Cursor& cursor) {
  const Token& token = cursor.Take();
  if (token.kind != TokenKind::kIdentifier) return Unexpected(cursor, token, "a label key");
  if (auto problem = LabelKeyProblem(token.text)) {
    return ErrorAt(cursor, token.offset,
                   "invalid label key " + QuoteForMessage(token.text) + ": " + *problem);
  }
  return std::string(token.text);
}

Status ValueError(const Cursor& cursor, const Token& token, const std::string& problem) {
  return ErrorAt(cursor, token.offset,
                 "invalid label value " + QuoteForMessage(token.text) + ": " + problem);
}

Result<std::string> ParseValue(Cursor& cursor) {
  const Token& token = cursor.Take();
  if (token.kind != TokenKind::kIdentifier) return Unexpected(cursor, token, "a label value");
  if (auto problem = LabelValueProblem(token.text)) return ValueError(cursor, token, *problem);
  return std::string(token.text);
}

// After "=", "==" or "!=" the value may be omitted, meaning "".
Result<std::string> ParseOptionalValue(Cursor& cursor) {
  if (cursor.AtRequirementEnd()) return std::string();
  return ParseValue(cursor);
}

Result<std::string> ParseIntegerValue(Cursor& cursor) {
  const Token& token = cursor.Peek();
  if (cursor.AtRequirementEnd()) return Unexpected(cursor, token, "an integer after '>' or '<'");
  std::string value;
  KUBE_ASSIGN_OR_RETURN(value, ParseValue(cursor));
  if (!ParseInt64(value)) return ValueError(cursor, token, "'>' and '<' need an int64 integer");
  return value;
}

Result<std::vector<std::string>> ParseValueSet(Cursor& cursor) {
  const Token& open = cursor.Take();
  if (open.kind != TokenKind::kOpenParen) return Unexpected(cursor, open, "'('");
  std::vector<std::string> values;
  while (true) {
    std::string value;  // an element left out, as in "(a,,b)" or "()", is ""
    if (cursor.Peek().kind == TokenKind::kIdentifier)
      KUBE_ASSIGN_OR_RETURN(value, ParseValue(cursor));
    values.push_back(std::move(value));
    const Token& separator = cursor.Take();
    if (separator.kind == TokenKind::kCloseParen) break;
    if (separator.kind != TokenKind::kComma) {
      return Unexpected(cursor, separator, "',' or ')' in the value list");
    }
  }
  SortUnique(values);
  return values;
}

Result<Requirement> ParseComparison(Cursor& cursor, std::string key) {
  const Token& op = cursor.Take();
  Requirement requirement{std::move(key), Operator::kEquals, {}};
  std::string value;
  switch (op.kind) {
    case TokenKind::kEquals:
    case TokenKind::kDoubleEquals:
    case TokenKind::kNotEquals:
      requirement.op = op.kind == TokenKind::kNotEquals ? Operator::kNotEquals : Operator::kEquals;
      KUBE_ASSIGN_OR_RETURN(value, ParseOptionalValue(cursor));
      requirement.values.push_back(std::move(value));
      return requirement;
    case TokenKind::kGreater:
    case TokenKind::kLess:
      requirement.op =
          op.kind == TokenKind::kGreater ? Operator::kGreaterThan : Operator::kLessThan;
      KUBE_ASSIGN_OR_RETURN(value, ParseIntegerValue(cursor));
      requirement.values.push_back(std::move(value));
      return requirement;
    default:
      break;
  }
  if (op.kind == TokenKind::kIdentifier && (op.text == "in" || op.text == "notin")) {
    requirement.op = op.text == "in" ? Operator::kIn : Operator::kNotIn;
    KUBE_ASSIGN_OR_RETURN(requirement.values, ParseValueSet(cursor));
    return requirement;
  }
  return Unexpected(cursor, op, "one of =, ==, !=, in, notin, >, <, ',' or end of string");
}

Result<Requirement> ParseRequirement(Cursor& cursor) {
  bool negated = cursor.Peek().kind == TokenKind::kBang;
  if (negated) cursor.Take();
  std::string key;
  KUBE_ASSIGN_OR_RETURN(key, ParseKey(cursor));
  if (negated) return Requirement{std::move(key), Operator::kDoesNotExist, {}};
  if (cursor.AtRequirementEnd()) return Requirement{std::move(key), Operator::kExists, {}};
  return ParseComparison(cursor, std::move(key));
}

Result<std::vector<Requirement>> ParseRequirements(Cursor& cursor) {
  std::vector<Requirement> requirements;
  if (cursor.Peek().kind == TokenKind::kEnd) return requirements;
  while (true) {
    Requirement requirement;
    KUBE_ASSIGN_OR_RETURN(requirement, ParseRequirement(cursor));
    requirements.push_back(std::move(requirement));
    const Token& token = cursor.Take();
    if (token.kind == TokenKind::kEnd) return requirements;
    if (token.kind != TokenKind::kComma) {
      return Unexpected(cursor, token, "',' or end of string");
    }
  }
}

// ---- metav1.LabelSelector JSON ----

Status JsonError(const std::string& path, const std::string& problem) {
  return Status(StatusCode::kParseError, "invalid label selector: " + path + ": " + problem);
}

// Returns the member, or nullptr when it is absent or null.
const nlohmann::json* FindMember(const nlohmann::json& object, const char* name) {
  auto it = object.find(name);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

Status CheckKey(const std::string& path, const std::string& key) {
  if (auto problem = LabelKeyProblem(key)) {
    return JsonError(path, "invalid label key " + QuoteForMessage(key) + ": " + *problem);
  }
  return Status::Ok();
}

Status CheckValue(const std::string& path, const std::string& value) {
  if (auto problem = LabelValueProblem(value)) {
    return JsonError(path, "invalid label value " + QuoteForMessage(value) + ": " + *problem);
  }
  return Status::Ok();
}

Status AppendMatchLabels(const nlohmann::json& selector, std::vector<Requirement>& out) {
  const nlohmann::json* match_labels = FindMember(selector, "matchLabels");
  if (match_labels == nullptr) return Status::Ok();
  if (!match_labels->is_object()) return JsonError("matchLabels", "must be an object");
  for (auto it = match_labels->begin(); it != match_labels->end(); ++it) {
    std::string path = "matchLabels[" + QuoteForMessage(it.key()) + "]";
    if (!it.value().is_string()) return JsonError(path, "must be a string");
    const auto& value = it.value().get_ref<const std::string&>();
    if (Status status = CheckKey(path, it.key()); !status.ok()) return status;
    if (Status status = CheckValue(path, value); !status.ok()) return status;
    out.push_back(Requirement{it.key(), Operator::kEquals, {value}});
  }
  return Status::Ok();
}

Result<Operator> ParseJsonOperator(const std::string& path, const nlohmann::json* op) {
  if (op == nullptr || !op->is_string()) return JsonError(path, "must be a string");
  const auto& name = op->get_ref<const std::string&>();
  if (name == "In") return Operator::kIn;
  if (name == "NotIn") return Operator::kNotIn;
  if (name == "Exists") return Operator::kExists;
  if (name == "DoesNotExist") return Operator::kDoesNotExist;
  return JsonError(path, QuoteForMessage(name) +
                             " is not a valid label selector operator (expected In, NotIn, "
                             "Exists or DoesNotExist)");
}

Result<std::vector<std::string>> ParseJsonValues(const std::string& path,
                                                 const nlohmann::json* values) {
  std::vector<std::string> out;
  if (values == nullptr) return out;
  if (!values->is_array()) return JsonError(path, "must be an array of strings");
  for (size_t i = 0; i < values->size(); ++i) {
    std::string item_path = path + "[" + std::to_string(i) + "]";
    const nlohmann::json& item = (*values)[i];
    if (!item.is_string()) return JsonError(item_path, "must be a string");
    const auto& value = item.get_ref<const std::string&>();
    if (Status status = CheckValue(item_path, value); !status.ok()) return status;
    out.push_back(value);
  }
  SortUnique(out);
  return out;
}

Status CheckValueCount(const std::string& path, const Requirement& requirement) {
  bool set_operator = requirement.op == Operator::kIn || requirement.op == Operator::kNotIn;
  if (set_operator && requirement.values.empty()) {
    return JsonError(path, "must be non-empty for the In and NotIn operators");
  }
  if (!set_operator && !requirement.values.empty()) {
    return JsonError(path, "must be empty for the Exists and DoesNotExist operators");
  }
  return Status::Ok();
}

Result<Requirement> ParseJsonExpression(const std::string& path, const nlohmann::json& expr) {
  if (!expr.is_object()) return JsonError(path, "must be an object");
  const nlohmann::json* key = FindMember(expr, "key");
  if (key == nullptr || !key->is_string()) return JsonError(path + ".key", "must be a string");
  Requirement requirement{key->get<std::string>(), Operator::kExists, {}};
  if (Status status = CheckKey(path + ".key", requirement.key); !status.ok()) return status;
  KUBE_ASSIGN_OR_RETURN(requirement.op,
                        ParseJsonOperator(path + ".operator", FindMember(expr, "operator")));
  KUBE_ASSIGN_OR_RETURN(requirement.values,
                        ParseJsonValues(path + ".values", FindMember(expr, "values")));
  if (Status status = CheckValueCount(path + ".values", requirement); !status.ok()) return status;
  return requirement;
}

Status AppendMatchExpressions(const nlohmann::json& selector, std::vector<Requirement>& out) {
  const nlohmann::json* expressions = FindMember(selector, "matchExpressions");
  if (expressions == nullptr) return Status::Ok();
  if (!expressions->is_array()) return JsonError("matchExpressions", "must be an array");
  for (size_t i = 0; i < expressions->size(); ++i) {
    Requirement requirement;
    KUBE_ASSIGN_OR_RETURN(
        requirement,
        ParseJsonExpression("matchExpressions[" + std::to_string(i) + "]", (*expressions)[i]));
    out.push_back(std::move(requirement));
  }
  return Status::Ok();
}

Status CheckRequirement(const std::string& path, const Requirement& requirement) {
  KUBE_RETURN_IF_ERROR(CheckKey(path + ".key", requirement.key));
  for (size_t i = 0; i < requirement.values.size(); ++i) {
    KUBE_RETURN_IF_ERROR(
        CheckValue(path + ".values[" + std::to_string(i) + "]", requirement.values[i]));
  }
  size_t count = requirement.values.size();
  switch (requirement.op) {
    case Operator::kIn:
    case Operator::kNotIn:
    case Operator::kExists:
    case Operator::kDoesNotExist:
      return CheckValueCount(path + ".values", requirement);
    case Operator::kEquals:
    case Operator::kNotEquals:
      if (count == 1) return Status::Ok();
      return JsonError(path + ".values", "exact-match compatibility requires one single value");
    case Operator::kGreaterThan:
    case Operator::kLessThan:
      if (count == 1 && ParseInt64(requirement.values.front())) return Status::Ok();
      return JsonError(path + ".values", "for 'Gt', 'Lt' operators, exactly one int64 is required");
  }
  return JsonError(path + ".operator", "unknown operator");
}

}  // namespace

LabelSelector::LabelSelector(std::vector<Requirement> requirements)
    : requirements_(std::move(requirements)) {
  std::sort(requirements_.begin(), requirements_.end());
}

Result<LabelSelector> LabelSelector::Parse(std::string_view text) {
  Cursor cursor{text, Tokenize(text)};
  std::vector<Requirement> requirements;
  KUBE_ASSIGN_OR_RETURN(requirements, ParseRequirements(cursor));
  return LabelSelector(std::move(requirements));
}

Result<LabelSelector> LabelSelector::FromRequirements(std::vector<Requirement> requirements) {
  for (size_t i = 0; i < requirements.size(); ++i) {
    KUBE_RETURN_IF_ERROR(CheckRequirement("[" + std::to_string(i) + "]", requirements[i]));
    SortUnique(requirements[i].values);
  }
  return LabelSelector(std::move(requirements));
}

Result<LabelSelector> LabelSelector::FromJson(const nlohmann::json& json) {
  if (json.is_null()) return LabelSelector();
  if (!json.is_object()) {
    return JsonError("selector", std::string("must be an object, not ") + json.type_name());
  }
  std::vector<Requirement> requirements;
  if (Status status = AppendMatchLabels(json, requirements); !status.ok()) return status;
  if (Status status = AppendMatchExpressions(json, requirements); !status.ok()) return status;
  return LabelSelector(std::move(requirements));
}

bool LabelSelector::Matches(const std::map<std::string, std::string>& labels) const {
  return std::all_of(requirements_.begin(), requirements_.end(),
                     [&](const Requirement& r) { return RequirementMatches(r, labels); });
}

std::string LabelSelector::ToString() const {
  std::string text;
  for (size_t i = 0; i < requirements_.size(); ++i) {
    if (i > 0) text += ',';
    text += RequirementToString(requirements_[i]);
  }
  return text;
}

}  // namespace kube
