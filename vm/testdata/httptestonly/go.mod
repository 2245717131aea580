module httptestonly

go 1.26
