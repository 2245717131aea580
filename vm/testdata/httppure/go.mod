module httppure

go 1.26
