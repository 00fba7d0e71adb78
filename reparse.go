package wfc

import (
	"reflect"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
	"github.com/wfc-lang/wfc/parser"
)

// reparseDecl re-parses only the top-level declaration an edit falls in,
// when that is certain to give what parsing the whole file gives (the
// language server's keystrokes, most of them inside one declaration):
//   - the old file parsed without any diagnostic, and so does the new
//     declaration, which must end exactly where the old one (moved by the
//     edit) ended;
//   - the edit lies strictly inside the declaration (its first keyword and
//     its closing brace untouched);
//   - the next declaration starts on a later line than it ends (so columns
//     stay).
//
// The declaration is parsed alone by parser.ParseDecl, with the file's
// positions. Declarations before it are reused; those after it are copied
// with their positions moved by the edit. Anything else returns ok ==
// false, and the caller parses the whole file. TestReparseAsParse holds it
// to the parser on every edit of a corpus.
func reparseDecl(old *ast.File, oldSyntax []diag.Diagnostic, name, src string) (nf *ast.File, ok bool) {
	defer func() {
		if recover() != nil {
			nf, ok = nil, false
		}
	}()
	if old == nil || len(oldSyntax) > 0 || old.Overwhelmed {
		return nil, false
	}
	o := old.Src
	k := editedDecl(old, o, src)
	if k < 0 {
		return nil, false
	}
	delta := len(src) - len(o)
	r := old.Decls[k].DeclRange()
	start, end := int(r.Start.Offset), int(r.End.Offset)+delta
	if k+1 < len(old.Decls) && old.Decls[k+1].DeclRange().Start.Line <= r.End.Line {
		return nil, false
	}
	lx := lexer.Lex(name, src)
	if len(lx.Diags) > 0 {
		return nil, false
	}
	nd, ds := parser.ParseDecl(parser.Source{Name: name, Src: src}, start)
	if nd == nil || len(ds) > 0 {
		return nil, false
	}
	if nr := nd.DeclRange(); int(nr.Start.Offset) != start || int(nr.End.Offset) != end {
		return nil, false
	}
	eof := lx.Tokens[len(lx.Tokens)-1]
	nf = &ast.File{Name: name, Src: src, Ignores: lx.Ignores,
		Range: diag.Range{Start: diag.Pos{Line: 1, Column: 1}, End: diag.MakePos(int(eof.Line), int(eof.Col), int(eof.Off))}}
	dLine := int32(strings.Count(src[start:end], "\n") - strings.Count(o[start:r.End.Offset], "\n"))
	if strings.ContainsRune(src[start:end], '\r') || strings.ContainsRune(o[start:r.End.Offset], '\r') {
		return nil, false // \r alone counts as a line break for some and not others
	}
	for i, d := range old.Decls {
		switch {
		case i < k:
			nf.Decls = append(nf.Decls, d.InFile(nf))
		case i == k:
			nf.Decls = append(nf.Decls, nd.InFile(nf))
		default:
			nf.Decls = append(nf.Decls, shiftCopy(reflect.ValueOf(d), int32(delta), dLine, nf).Interface().(ast.Decl))
		}
	}
	return nf, true
}

// editedDecl is the index of the declaration that strictly contains every
// byte where o and src differ, or -1.
func editedDecl(f *ast.File, o, src string) int {
	pre := 0
	for pre < len(o) && pre < len(src) && o[pre] == src[pre] {
		pre++
	}
	suf := 0
	for suf < len(o)-pre && suf < len(src)-pre && o[len(o)-1-suf] == src[len(src)-1-suf] {
		suf++
	}
	for i, d := range f.Decls {
		r := d.DeclRange()
		if int(r.Start.Offset) < pre && len(o)-suf < int(r.End.Offset) {
			return i
		}
	}
	return -1
}

var (
	posType  = reflect.TypeOf(diag.Pos{})
	fileType = reflect.TypeOf(&ast.File{})
)

// shiftCopy deep-copies a syntax tree, moving every position by dOff bytes
// and dLine lines, and pointing every *ast.File at f. It panics on a node
// with unexported fields (reparseDecl then falls back to a full parse).
func shiftCopy(v reflect.Value, dOff, dLine int32, f *ast.File) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		if v.Type() == fileType {
			return reflect.ValueOf(f)
		}
		n := reflect.New(v.Type().Elem())
		n.Elem().Set(shiftCopy(v.Elem(), dOff, dLine, f))
		return n
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Type()).Elem()
		n.Set(shiftCopy(v.Elem(), dOff, dLine, f))
		return n
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			n.Index(i).Set(shiftCopy(v.Index(i), dOff, dLine, f))
		}
		return n
	case reflect.Struct:
		if v.Type() == posType {
			p := v.Interface().(diag.Pos)
			p.Offset += dOff
			p.Line += dLine
			return reflect.ValueOf(p)
		}
		n := reflect.New(v.Type()).Elem()
		for i := 0; i < v.NumField(); i++ {
			n.Field(i).Set(shiftCopy(v.Field(i), dOff, dLine, f))
		}
		return n
	case reflect.Map:
		panic("maps are not copied")
	}
	return v
}
