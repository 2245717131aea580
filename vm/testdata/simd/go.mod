module github.com/dgraph-io/ristretto

go 1.22
