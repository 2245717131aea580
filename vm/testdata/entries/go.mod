module example.com/entries

go 1.26
