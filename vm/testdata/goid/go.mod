module github.com/petermattis/goid

go 1.22
