package load

// This file blanks the bodies of a stripped package's functions in its
// source text before it is parsed: stripBodies would drop them after
// parsing, and parsing them is most of what loading a test that imports
// net/http costs. Blanking replaces every byte of a body between its braces
// by a space (newlines stay), so every position in the file is unchanged.
// The scan knows Go's comments and literals and gofmt's layout (a
// top-level declaration starts a line); when it cannot follow the text it
// returns the source unchanged, and stripBodies does the work as before.

// blankBodies returns src with the bodies of its top-level functions
// blanked, except generic functions and methods of generic types (SSA
// instantiates them from their bodies) and the functions keep names
// ("Recv.Name" or "Name", as funcKey).
func blankBodies(src []byte, keep func(key string) bool) []byte {
	out := append([]byte(nil), src...)
	depth := 0
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '/' || c == '"' || c == '`' || c == '\'':
			j := skipLiteral(src, i)
			if j < 0 {
				return src
			}
			i = j
		case c == '(' || c == '[' || c == '{':
			depth++
			i++
		case c == ')' || c == ']' || c == '}':
			depth--
			i++
		case depth == 0 && c == 'f' && (i == 0 || src[i-1] == '\n') && hasPrefixAt(src, i, "func") &&
			i+4 < len(src) && (src[i+4] == ' ' || src[i+4] == '('):
			open, close, key, generic, ok := funcBody(src, i+4)
			if !ok {
				return src
			}
			if open < 0 { // no body (assembly)
				i = close
				continue
			}
			if !generic && !keep(key) {
				for k := open + 1; k < close; k++ {
					if out[k] != '\n' {
						out[k] = ' '
					}
				}
			}
			i = close + 1
		default:
			i++
		}
	}
	if depth != 0 {
		return src
	}
	return out
}

func hasPrefixAt(src []byte, i int, p string) bool {
	return len(src)-i >= len(p) && string(src[i:i+len(p)]) == p
}

// skipLiteral returns the index after the comment or literal that starts
// at i (a lone '/' is the division operator), or -1 if it does not end.
func skipLiteral(src []byte, i int) int {
	switch src[i] {
	case '/':
		if i+1 < len(src) && src[i+1] == '/' {
			for j := i + 2; j < len(src); j++ {
				if src[j] == '\n' {
					return j
				}
			}
			return len(src)
		}
		if i+1 < len(src) && src[i+1] == '*' {
			for j := i + 2; j+1 < len(src); j++ {
				if src[j] == '*' && src[j+1] == '/' {
					return j + 2
				}
			}
			return -1
		}
		return i + 1
	case '`':
		for j := i + 1; j < len(src); j++ {
			if src[j] == '`' {
				return j + 1
			}
		}
		return -1
	default: // '"' or '\''
		q := src[i]
		for j := i + 1; j < len(src); j++ {
			switch src[j] {
			case '\\':
				j++
			case q:
				return j + 1
			case '\n':
				return -1
			}
		}
		return -1
	}
}

// funcBody reads the declaration whose text after "func" starts at i: the
// indexes of its body's braces (open -1 and close the end of the
// declaration when it has no body), its funcKey, and whether it is
// generic. ok is false when the text does not look like gofmt'ed Go.
func funcBody(src []byte, i int) (open, close int, key string, generic, ok bool) {
	i = skipSpaces(src, i)
	recv := ""
	if i < len(src) && src[i] == '(' {
		end := matchClose(src, i)
		if end < 0 {
			return 0, 0, "", false, false
		}
		r := src[i+1 : end]
		for _, b := range r {
			if b == '[' {
				generic = true
			}
		}
		recv = lastIdent(r)
		i = skipSpaces(src, end+1)
	}
	start := i
	for i < len(src) && isIdentByte(src[i]) {
		i++
	}
	if i == start {
		return 0, 0, "", false, false
	}
	key = string(src[start:i])
	if recv != "" {
		key = recv + "." + key
	}
	if i < len(src) && src[i] == '[' {
		generic = true
	}
	// the signature: the body's brace is the first '{' outside
	// parentheses and brackets that does not open a struct or
	// interface type; a newline there ends a declaration without body
	depth := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '/' || c == '"' || c == '`' || c == '\'':
			j := skipLiteral(src, i)
			if j < 0 {
				return 0, 0, "", false, false
			}
			i = j
			continue
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == '\n' && depth == 0:
			return -1, i, key, generic, true
		case c == '{' && depth == 0:
			if w := wordBefore(src, i); w == "struct" || w == "interface" {
				end := matchClose(src, i)
				if end < 0 {
					return 0, 0, "", false, false
				}
				i = end + 1
				continue
			}
			end := matchClose(src, i)
			if end < 0 {
				return 0, 0, "", false, false
			}
			return i, end, key, generic, true
		case c == '{':
			end := matchClose(src, i)
			if end < 0 {
				return 0, 0, "", false, false
			}
			i = end + 1
			continue
		}
		i++
	}
	return 0, 0, "", false, false
}

// matchClose returns the index of the bracket closing the one at i, or -1.
func matchClose(src []byte, i int) int {
	depth := 0
	for j := i; j < len(src); {
		switch c := src[j]; c {
		case '/', '"', '`', '\'':
			k := skipLiteral(src, j)
			if k < 0 {
				return -1
			}
			j = k
			continue
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return j
			}
		}
		j++
	}
	return -1
}

func skipSpaces(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

// wordBefore returns the identifier that ends just before i (spaces
// skipped).
func wordBefore(src []byte, i int) string {
	j := i
	for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t') {
		j--
	}
	k := j
	for k > 0 && isIdentByte(src[k-1]) {
		k--
	}
	return string(src[k:j])
}

// lastIdent returns the last identifier of a receiver's text: its type's
// name ("t *T" → "T").
func lastIdent(r []byte) string {
	end := len(r)
	for end > 0 && !isIdentByte(r[end-1]) {
		end--
	}
	start := end
	for start > 0 && isIdentByte(r[start-1]) {
		start--
	}
	return string(r[start:end])
}

// blankTables returns src with the elements of its package-level
// variables' composite literals blanked ("var t = [4]int{1, 2, 3, 4}"
// becomes "var t = [4]int{          }": the same type, no elements), for a
// package whose initializers never run (stripped or dead: parsing and
// type-checking their tables is wasted). A literal whose type is not a
// plain name, pointer, slice, sized array or map type (an [...] array
// takes its length from its elements) is left whole; so is the whole
// source when the scan cannot follow it.
func blankTables(src []byte) []byte {
	var out []byte
	depth, inVar := 0, false
	for i := 0; i < len(src); {
		lineStart := i == 0 || src[i-1] == '\n'
		spec := -1
		switch {
		case lineStart && depth == 0 && hasPrefixAt(src, i, "var ("):
			inVar = true
		case lineStart && depth == 0 && hasPrefixAt(src, i, "var "):
			spec = i + 4
		case lineStart && depth == 1 && inVar && src[i] == '\t':
			spec = i + 1
		}
		if spec >= 0 {
			if open, close := tableLiteral(src, spec); open >= 0 {
				if out == nil {
					out = append([]byte(nil), src...)
				}
				for k := open + 1; k < close; k++ {
					if out[k] != '\n' {
						out[k] = ' '
					}
				}
				i = close + 1
				continue
			}
		}
		switch c := src[i]; {
		case c == '/' || c == '"' || c == '`' || c == '\'':
			j := skipLiteral(src, i)
			if j < 0 {
				return src
			}
			i = j
		case c == '(' || c == '[' || c == '{':
			depth++
			i++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth == 0 {
				inVar = false
			}
			i++
		default:
			i++
		}
	}
	if out == nil || depth != 0 {
		return src
	}
	return out
}

// tableLiteral finds, in the variable spec that starts at i ("name = T{"
// or "name T = T{" on its line), the braces of a composite literal of a
// plain type; open is -1 when there is none.
func tableLiteral(src []byte, i int) (open, close int) {
	// the '=' of the spec, on its line
	j := i
	for ; j < len(src) && src[j] != '\n' && src[j] != '='; j++ {
		switch src[j] {
		case '"', '`', '\'', '/', '(', '{':
			return -1, 0
		}
	}
	if j+1 >= len(src) || src[j] != '=' || src[j+1] == '=' {
		return -1, 0
	}
	j = skipSpaces(src, j+1)
	if j < len(src) && src[j] == '&' {
		j++
	}
	start := j
	for j < len(src) {
		c := src[j]
		switch {
		case isIdentByte(c) || c == '.' || c == '*':
			j++
		case c == '[':
			end := matchClose(src, j)
			if end < 0 {
				return -1, 0
			}
			for _, b := range src[j+1 : end] {
				if !isIdentByte(b) && b != '*' {
					return -1, 0 // [...], or an expression
				}
			}
			j = end + 1
		case c == '{' && j > start:
			end := matchClose(src, j)
			if end < 0 {
				return -1, 0
			}
			return j, end
		default:
			return -1, 0
		}
	}
	return -1, 0
}
