def main():
    print("running main")
if __name__ == "__main__":
    main()
